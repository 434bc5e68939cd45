//pass
//--blockDim=128 --gridDim=4
// `thread_group`, the type of any group: a reduction written once for a
// `thread_group` runs over the whole block and over tiles of 16 made by
// the run-time `tiled_partition(block, 16)`. Each group reduces in its own
// slice of shared memory, and `g.sync()` is a barrier of that group.
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
    g.sync();
  }
  return val;
}

__global__ void reduce(int *out)
{
  __shared__ int scratch[128];
  cg::thread_block block = cg::this_thread_block();
  int total = sum(block, scratch, threadIdx.x);
  if (block.thread_rank() == 0)
    out[blockIdx.x] = total;
  block.sync();
  cg::thread_group tile = cg::tiled_partition(block, 16);
  int base = (threadIdx.x / 16) * 16;
  int part = sum(tile, scratch + base, threadIdx.x);
  if (tile.thread_rank() == 0)
    out[gridDim.x + blockIdx.x * 8 + threadIdx.x / 16] = part;
}
