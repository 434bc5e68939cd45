//pass
//
// A cooperative kernel launched through the runtime API,
// cudaLaunchCooperativeKernel((void *)k, grid, block, args, smem, stream),
// with `dim3 dimGrid(blocks, 1, 1)` and `dim3 dimBlock(threads, 1, 1)`:
// the launch gives 1-D blocks and a 1-D grid, so the first thread of each
// block (its rank in the block is 0) writes its block's own element.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void partials(float *out, const float *in)
{
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  if (block.thread_rank() == 0)
    out[blockIdx.x] = in[blockIdx.x];
  grid.sync();
}

void run(float *d_out, float *d_in, int threads, int blocks)
{
  void *args[] = {(void *)&d_out, (void *)&d_in};
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  cudaLaunchCooperativeKernel((void *)partials, dimGrid, dimBlock, args, 0, NULL);
}
