//xfail:data-race
//--blockDim=4 --gridDim=1
// `idx<2>` is explicitly specialised to return 0: every thread writes x[0].
// The primary template would give t * 2, race-free.
template <int N> __device__ unsigned idx(unsigned t) { return t * N; }
template <> __device__ unsigned idx<2>(unsigned t) { return 0; }
__global__ void k(int *x) {
  x[idx<2>(threadIdx.x)] = 1;
}
