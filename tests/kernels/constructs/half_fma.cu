//pass
//--blockDim=128 --gridDim=4
// A scalar `half` fused multiply-add, `__hfma` (a mixed-precision axpy):
// each thread updates its own elements of a grid-stride loop. In
// half_fma_racy.cu the stride forgets the grid, and blocks overlap.
#include <cuda_fp16.h>

__global__ void haxpy(int n, half a, const half *x, half *y)
{
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = start; i < n; i += stride)
    y[i] = __hfma(a, x[i], y[i]);
}
