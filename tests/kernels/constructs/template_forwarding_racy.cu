//xfail:data-race
//
// The forwarded template argument is 32 for a block of 64 threads: the
// blocks overlap, so threads of blocks 0 and 1 write the same element.
template <unsigned blockSize> __device__ void inner(float *a) {
  a[threadIdx.x + blockSize * blockIdx.x] = 1.0f;
}
template <unsigned blockSize> __global__ void outer(float *a) {
  inner<blockSize / 2>(a);
}
void host(float *d) { outer<64><<<4, 64>>>(d); }
