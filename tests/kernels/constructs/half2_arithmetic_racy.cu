//xfail:data-race
//--blockDim=64 --gridDim=4
// The `half2` dot product without the barrier between reduction steps:
// a step reads partial sums the previous one is still writing.
#include <cuda_fp16.h>
#define THREADS 64

__global__ void dot(const half2 *a, const half2 *b, float *out, int n)
{
  __shared__ half2 partial[THREADS];
  half2 acc = __float2half2_rn(0.f);
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
    acc = __hfma2(a[i], b[i], acc);
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] = partial[threadIdx.x] + partial[threadIdx.x + s];
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = __low2float(partial[0]) + __high2float(partial[0]);
}
