//xfail:data-race
//--blockDim=128 --gridDim=4
// The same leader check written with the non-short-circuit '&' on bools: every
// thread now reads s_count while thread 0 writes it, with no barrier between.
__global__ void leaderCheckEager(const int *in, int *out)
{
  __shared__ int s_count;
  __shared__ int s_vals[128];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  if (tid == 0)
    s_count = in[blockIdx.x * blockDim.x];
  bool leaderHasWork = (tid == 0) & (s_count > 0);
  s_vals[tid] = leaderHasWork ? 1 : 0;
  __syncthreads();

  out[gid] = s_vals[0] + s_vals[tid];
}
