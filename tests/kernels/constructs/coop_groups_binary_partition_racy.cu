//xfail:data-race
//--blockDim=64 --gridDim=2
// The parity sums with a plain `+=` instead of the atomic: the leaders of
// the parts of different warps (and of both blocks) update one counter.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void paritySums(const int *in, int *sums)
{
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  auto part = cg::binary_partition(tile, v & 1);
  int sum = cg::reduce(part, v, cg::plus<int>());
  if (part.thread_rank() == 0)
    sums[v & 1] += sum;
}
