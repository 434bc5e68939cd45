//xfail:data-race
//
// The twin of launched_from_device_only.cu whose device-side launch has
// two blocks: both write out[0..63].
__global__ void child(int *out) { out[threadIdx.x] = 1; }

__global__ void parent(int *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    child<<<2, 64>>>(out);
}
