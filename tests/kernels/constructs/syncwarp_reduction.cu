//pass
//--blockDim=64 --gridDim=4
//
// A block reduction whose last steps run in one warp, ordered by
// __syncwarp() instead of __syncthreads(): each step reads its partner's
// slot, synchronises the warp, then writes its own. __syncwarp orders the
// lanes of one warp only; the first step, between the two warps, needs the
// block barrier.
__global__ void reduceWarp(const float *in, float *out)
{
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    s[tid] += s[tid + 32];
  __syncthreads();
  if (tid < 32) {
    float v = s[tid];
    for (unsigned off = 16; off > 0; off >>= 1) {
      v += s[tid + off];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
