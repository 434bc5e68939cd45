//xfail:data-race
//--blockDim=4 --gridDim=1
// Every `extern __shared__` array of a kernel starts at the block's dynamic
// shared memory: `a[0]` and `b[0]` are one location, written by threads
// 0 and 3 without a barrier.
__global__ void k(int *o) {
  extern __shared__ int a[];
  extern __shared__ int b[];
  a[threadIdx.x] = 1;
  if (threadIdx.x == 3) b[0] = 2;
}
