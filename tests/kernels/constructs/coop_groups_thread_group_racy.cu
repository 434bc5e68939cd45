//xfail:data-race
//--blockDim=128 --gridDim=4
// The reduction over a `thread_group` lacks its second `g.sync()`: a
// thread's read of its partner's slot races with the partner's write of
// the next step. Each tile of 16 has its own slice of shared memory.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int sum(cg::thread_group g, int *x, int val)
{
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = val;
    g.sync();
    if (lane < i)
      val += x[lane + i];
  }
  return val;
}

__global__ void reduce(int *out)
{
  __shared__ int scratch[128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 16);
  int part = sum(tile, scratch + (threadIdx.x / 16) * 16, threadIdx.x);
  if (tile.thread_rank() == 0)
    out[blockIdx.x * 8 + threadIdx.x / 16] = part;
}
