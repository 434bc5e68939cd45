//pass
//--blockDim=128 --gridDim=4
// __syncthreads() and the voting barriers __syncthreads_count, _and and _or,
// plus barriers under a condition that is uniform across the block (a scalar
// kernel parameter and blockIdx.x).
__global__ void blockVotes(const float *in, float *out, int *stats, int mode)
{
  __shared__ float s[128];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  float v = in[gid];
  s[tid] = v;
  int positives = __syncthreads_count(v > 0.0f);
  int allSmall = __syncthreads_and(v < 1000.0f && v > -1000.0f);
  int anyZero = __syncthreads_or(v == 0.0f);

  float nb = s[(tid + 1) % blockDim.x];
  if (mode == 1) {
    __syncthreads();
    s[tid] = nb * 2.0f;
    __syncthreads();
    nb = s[blockDim.x - 1 - tid];
  }
  if (blockIdx.x % 2 == 0) {
    __syncthreads();
  }
  out[gid] = nb;

  if (tid == 0) {
    stats[3 * blockIdx.x] = positives;
    stats[3 * blockIdx.x + 1] = allSmall;
    stats[3 * blockIdx.x + 2] = anyZero;
  }
}
