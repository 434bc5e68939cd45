//pass
//--blockDim=4 --gridDim=1
// The explicit specialisation `idx<1>` is called for `idx<1>`, the primary
// template (every thread at 0) for other arguments.
template <int N> __device__ unsigned idx(unsigned t) { return 0; }
template <> __device__ unsigned idx<1>(unsigned t) { return t; }
__global__ void k(int *x) {
  x[idx<1>(threadIdx.x)] = 1;
  if (threadIdx.x == 0) x[idx<2>(threadIdx.x) + 100] = 1;
}
