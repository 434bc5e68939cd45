//pass
//
// Template parameters forwarded to another template (`inner<blockSize,
// pow2>`) and a file-scope constant as a template argument (`gemm<BM>`),
// with the launches in host code fixing the dimensions.
typedef unsigned int uint;
const uint BM = 64;
template <unsigned blockSize, bool pow2> __device__ void inner(float *a) {
  if (pow2) a[threadIdx.x + blockSize * blockIdx.x] = 1.0f;
}
template <unsigned blockSize, bool pow2> __global__ void outer(float *a) {
  inner<blockSize, pow2>(a);
}
template <int N> __global__ void gemm(float *a) { a[threadIdx.x + N * blockIdx.x] = 0; }
void host(float *d) { outer<64, true><<<4, 64>>>(d); gemm<BM><<<4, 64>>>(d); }
