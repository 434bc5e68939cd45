//xfail:data-race
//--blockDim=4 --gridDim=1
// The member `get` returns 0 for every thread; the free function of the
// same name (which the method must not call) would be race-free.
__device__ unsigned get(unsigned t) { return t; }
struct S {
  __device__ unsigned get(unsigned t) { return 0; }
  __device__ unsigned at(unsigned t) { return get(t); }
};
__global__ void k(int *x) {
  S s;
  x[s.at(threadIdx.x)] = 1;
}
