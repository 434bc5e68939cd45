//pass
//
// `child` is launched only from device code, each time with one block of
// 64 threads: it never reads blockIdx, and with one block its threads
// write distinct elements.
__global__ void child(int *out) { out[threadIdx.x] = 1; }

__global__ void parent(int *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    child<<<1, 64>>>(out);
}
