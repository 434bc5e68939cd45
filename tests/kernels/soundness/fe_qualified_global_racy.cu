//xfail:data-race
//--blockDim=4 --gridDim=1
// `::slot` is the file-scope variable (0 for every thread), not the local
// that shadows it: every thread writes x[0].
__device__ unsigned slot = 0;
__global__ void k(int *x) {
  unsigned slot = threadIdx.x;
  unsigned at = ::slot;
  x[at] = slot;
}
