//pass
//--blockDim=64 --gridDim=2
//
// GEMM-style staging: the first warp of a block copies from A, the second
// from B (a pointer into one of two `half` arrays, chosen by warp), each
// lane moving 16 bytes at a time as an `int4`, into its own part of a
// `half` shared tile. Every lane copies distinct chunks.
#include <cuda_fp16.h>

__global__ void stage(const half *A, const half *B, half *out)
{
  __shared__ half tile[2][32 * 8];
  unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const half *src = (warp == 0) ? &A[blockIdx.x * 256] : &B[blockIdx.x * 256];
  *((int4 *)&tile[warp][0] + lane) = *((const int4 *)src + lane);
  __syncthreads();
  out[(blockIdx.x * 2 + warp) * 256 + lane] = tile[1 - warp][lane];
}
