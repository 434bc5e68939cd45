//xfail:data-race
//--blockDim=64 --gridDim=2
//
// The racy twin of memory_reinterpret_choice.cu: both warps stage into
// the first shared tile, so lane l of each warp writes the same 16 bytes.
#include <cuda_fp16.h>

__global__ void stage(const half *A, const half *B, half *out)
{
  __shared__ half tile[2][32 * 8];
  unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const half *src = (warp == 0) ? &A[blockIdx.x * 256] : &B[blockIdx.x * 256];
  *((int4 *)&tile[0][0] + lane) = *((const int4 *)src + lane);
  __syncthreads();
  out[(blockIdx.x * 2 + warp) * 256 + lane] = tile[1 - warp][lane];
}
