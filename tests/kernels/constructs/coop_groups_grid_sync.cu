//pass
//--blockDim=256 --gridDim=8
// Grid-wide synchronisation with cooperative groups (the kernel is meant for
// cudaLaunchCooperativeKernel): every thread writes its own element of tmp,
// cg::grid_group::sync() orders the whole grid, then each thread reads the
// element written by the corresponding thread of the next block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rotateBlocks(const float *in, float *tmp, float *out)
{
  cg::grid_group g = cg::this_grid();
  unsigned n = gridDim.x * blockDim.x;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;

  tmp[gid] = in[gid] * 2.0f;
  g.sync();
  out[gid] = tmp[(gid + blockDim.x) % n];
}
