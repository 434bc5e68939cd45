//xfail:barrier-divergence
//--blockDim=128 --gridDim=4
// A grid barrier under a condition that is the same within each block but
// differs between blocks: block 0 waits at it for the others, which never
// arrive (barrier divergence across the grid).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void firstBlockWaits(int *data)
{
  cg::grid_group grid = cg::this_grid();
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;

  data[gid] = 1;
  if (blockIdx.x == 0) {
    grid.sync();
  }
  data[gid] = 2;
}
