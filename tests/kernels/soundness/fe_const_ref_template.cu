//pass
//--blockDim=4 --gridDim=1
// A user template `min(const T&, const T&)` beside CUDA's built-in `min`:
// C++ prefers the built-in non-template for `unsigned` arguments, and a
// `const T&` parameter binds to an rvalue such as `blockDim.x`. Both give
// the same minimum: each thread writes its own slot.
template <class T> __device__ T min(const T &a, const T &b) { return a < b ? a : b; }
template <class T> __device__ T pick(const T &a) { return a; }
__global__ void k(int *x) {
  unsigned t = threadIdx.x;
  x[min(t, blockDim.x)] = 1;
  x[pick(t + 8u)] = 2;
}
