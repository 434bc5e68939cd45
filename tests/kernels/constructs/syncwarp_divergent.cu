//xfail:barrier-divergence
//--blockDim=64 --gridDim=1
//
// __syncwarp() with the full mask must be reached by all 32 lanes of the
// warp; here only the lower 16 of each warp reach it.
__global__ void halfWarp(int *out)
{
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  if (tid % 32 < 16)
    __syncwarp();
  out[tid] = s[tid];
}
