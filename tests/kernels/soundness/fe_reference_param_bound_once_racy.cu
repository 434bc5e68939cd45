//xfail:data-race
//--blockDim=4 --gridDim=1
// A reference parameter is bound when the call is made: `slot` is x[0] for
// every thread even though the callee changes `i` first.
__device__ void put(unsigned &i, int &slot) {
  i = threadIdx.x;
  slot = 9;
}
__global__ void k(int *x) {
  unsigned i = 0;
  put(i, x[i]);
}
