//xfail:data-race
//--blockDim=128 --gridDim=4
// rotateIfAsked of coop_groups_grid_sync_conditional.cu without the second
// grid barrier: a thread's read of the next block's slot races with that
// block's thread overwriting it after the conditional. And a read of the
// next block's slot after a conditional grid barrier: when the condition is
// false, nothing orders it after the write before the conditional (a race
// only *possible*, as the query does not check that the condition can be
// false).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rotateIfAskedNoSecondSync(int *data, int *out, int rounds)
{
  cg::grid_group grid = cg::this_grid();
  unsigned n = gridDim.x * blockDim.x;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;

  data[gid] = gid;
  if (rounds > 1) {
    grid.sync();
    out[gid] = data[(gid + blockDim.x) % n];
  }
  data[gid] = 0;
}

__global__ void readAfterOptionalSync(int *data, int *out, int rounds)
{
  cg::grid_group grid = cg::this_grid();
  unsigned n = gridDim.x * blockDim.x;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;

  data[gid] = gid;
  if (rounds > 1) {
    grid.sync();
  }
  out[gid] = data[(gid + blockDim.x) % n];
}
