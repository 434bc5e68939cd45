//pass
//--blockDim=128 --gridDim=4
// Grid barriers under a condition that is the same for every thread of the
// grid (a kernel parameter): all threads reach them or none does. Inside,
// each thread reads the slot the next block's thread wrote before the first
// grid barrier; the second one orders that read before the overwrite after
// the conditional. When `rounds <= 1` no barrier runs, and only each
// thread's own slot is touched before and after.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rotateIfAsked(int *data, int *out, int rounds)
{
  cg::grid_group grid = cg::this_grid();
  unsigned n = gridDim.x * blockDim.x;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;

  data[gid] = gid;
  if (rounds > 1) {
    grid.sync();
    out[gid] = data[(gid + blockDim.x) % n];
    grid.sync();
  }
  data[gid] = 0;
}
