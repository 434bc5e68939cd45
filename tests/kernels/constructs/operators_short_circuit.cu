//pass
//--blockDim=128 --gridDim=4
// Short-circuit && and || whose right operand reads memory. Before the barrier
// thread 0 writes s_count and only thread 0 evaluates the right operands that
// read it, so there is no race; after the barrier everybody may read it.
__global__ void leaderCheck(const int *in, int *out, int *blockFlags)
{
  __shared__ int s_count;
  __shared__ int s_vals[128];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  if (tid == 0)
    s_count = in[blockIdx.x * blockDim.x];
  bool leaderHasWork = (tid == 0) && (s_count > 0);
  bool followerOrIdle = (tid != 0) || (s_count == 0);
  s_vals[tid] = leaderHasWork ? 1 : 0;
  __syncthreads();

  bool positive = (s_count > 0) && (in[gid] > 0);
  out[gid] = positive ? s_vals[0] + s_vals[tid] : 0;
  if (tid == 0)
    blockFlags[blockIdx.x] = followerOrIdle ? 0 : 1;
}
