//pass
//--blockDim=64 --gridDim=2
// `binary_partition`: a warp tile split by the parity of each thread's
// value; each part sums its values with `cg::reduce` and its leader (rank
// 0, which lanes that is depends on the data) adds the sum to one of two
// counters atomically.
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
    atomicAdd(&sums[v & 1], sum);
}
