//xfail:data-race
//--blockDim=4 --gridDim=1
// `b::f` returns 0: every thread writes x[0]. The first `f` of the file
// (`a::f`, the identity) would make it race-free.
namespace a { __device__ unsigned f(unsigned t) { return t; } }
namespace b { __device__ unsigned f(unsigned t) { return 0; } }
__global__ void k(int *x) {
  x[b::f(threadIdx.x)] = 1;
}
