//xfail:data-race
//--blockDim=64 --gridDim=4
//
// The racy twin of syncwarp_reduction.cu: without the __syncwarp() between
// reading the partner's slot and writing its own, lane t writes s[t] while
// lane t - off reads it.
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
      s[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
