//xfail:barrier-divergence
//--blockDim=256 --gridDim=4
// Out-of-range threads return before __syncthreads(): whenever n is not a
// multiple of 256, the threads with gid >= n skip the barrier that the rest of
// their block waits at.
__global__ void subtractFirst(const float *in, float *out, int n)
{
  __shared__ float s[256];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  if (gid >= n)
    return;

  s[tid] = in[gid];
  __syncthreads();
  out[gid] = s[tid] - s[0];
}
