//xfail:data-race
//--blockDim=128 --gridDim=4
// The twin of half_fma.cu: the loop steps by one block instead of the
// whole grid, so block 1's first element is block 0's second.
#include <cuda_fp16.h>

__global__ void haxpy(int n, half a, const half *x, half *y)
{
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x;
  for (int i = start; i < n; i += stride)
    y[i] = __hfma(a, x[i], y[i]);
}
