//pass
//--blockDim=64 --gridDim=4
//
// Cooperative groups' grid (thread_rank(), size(), num_blocks() of
// this_grid()), __sincosf storing through two pointers into global arrays,
// __nanosleep, and a conditional graph node's handle set by one thread
// (graph state, not memory). Each thread writes the elements of its rank
// in the grid.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rotate(float *sines, float *cosines, const float *phase,
                       unsigned long long n, cudaGraphConditionalHandle handle)
{
  cg::grid_group grid = cg::this_grid();
  unsigned long long i = grid.thread_rank();
  if (i < n && i < grid.size())
    __sincosf(phase[i], &sines[i], &cosines[i]);
  __nanosleep(100);
  if (grid.thread_rank() == 0)
    cudaGraphSetConditional(handle, grid.num_blocks() > 1 ? 1 : 0);
}
