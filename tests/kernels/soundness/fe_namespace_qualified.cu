//pass
//--blockDim=4 --gridDim=1
// `a::f` and `b::f` are different functions; a qualified call and an
// unqualified call from inside a namespace each find their own.
namespace b { __device__ unsigned f(unsigned t) { return 0; } }
namespace a {
__device__ unsigned f(unsigned t) { return t; }
__global__ void k(int *x) {
  x[f(threadIdx.x)] = 1;
  x[a::f(threadIdx.x) + 4] = 1;
  x[b::f(threadIdx.x) + 8 + threadIdx.x] = 1;
}
}
