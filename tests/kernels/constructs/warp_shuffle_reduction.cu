//pass
//--blockDim=256 --gridDim=4
//
// A block reduction in the cuda-samples style: each warp reduces its
// values with __shfl_down_sync (a tile's shfl_down, cg::reduce and a vote
// in the other variants), lane 0 of each warp writes one shared slot, and
// after the block barrier warp 0 reduces the slots. The exchanged values
// are unknown to the static engine (any value), which does not matter
// here: no index depends on them.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float warpSum(unsigned mask, float v)
{
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(mask, v, offset);
  return v;
}

__global__ void blockReduce(const float *in, float *out, int n)
{
  __shared__ float partial[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  unsigned mask = __ballot_sync(0xffffffff, i < n);
  v = warpSum(mask, v);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < 8 ? partial[threadIdx.x] : 0.0f;
    v = warpSum(0xffffffff, v);
    if (threadIdx.x == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void tileReduce(const int *in, int *out, int n)
{
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  __shared__ int partial[32];
  int i = blockIdx.x * cta.size() + cta.thread_rank();
  int v = i < n ? in[i] : 0;
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  if (tile.any(v != 0) && tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = v;
  cg::sync(cta);
  if (tile.meta_group_rank() == 0) {
    v = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0;
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0)
      out[blockIdx.x] = v;
  }
}
