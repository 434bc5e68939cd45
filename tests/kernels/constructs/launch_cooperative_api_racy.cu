//xfail:DATA_RACE
//
// launch_cooperative_api.cu launched with `dim3 dimGrid(blocks, 2, 1)`:
// blocks (x, 0) and (x, 1) both write element x (the first thread of each
// block writes, as threadIdx.x == 0).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void partials(float *out, const float *in)
{
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    out[blockIdx.x] = in[blockIdx.x];
  grid.sync();
}

void run(float *d_out, float *d_in, int threads, int blocks)
{
  void *args[] = {(void *)&d_out, (void *)&d_in};
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 2, 1);
  cudaLaunchCooperativeKernel((void *)partials, dimGrid, dimBlock, args, 0, NULL);
}
