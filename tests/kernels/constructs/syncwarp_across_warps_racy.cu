//xfail:data-race
//--blockDim=64 --gridDim=1
//
// __syncwarp() orders the lanes of one warp, not two warps: lane t of warp
// 0 reads the slot lane t of warp 1 wrote before the warp barrier.
__global__ void swapWarps(int *out)
{
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  __syncwarp();
  out[tid] = s[(tid + 32) % 64];
}
