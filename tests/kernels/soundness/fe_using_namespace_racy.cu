//xfail:data-race
//--blockDim=4 --gridDim=1
// `using namespace b;` makes `f` name `b::f` (constant 0): every thread
// writes x[0].
namespace a { __device__ unsigned g(unsigned t) { return t; } }
namespace b { __device__ unsigned f(unsigned t) { return 0; } }
using namespace b;
__global__ void k(int *x) {
  x[f(threadIdx.x)] = 1;
}
