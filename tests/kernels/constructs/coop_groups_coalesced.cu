//pass
//--blockDim=64 --gridDim=2
// `coalesced_threads()`: the lanes active at the call elect a leader (rank
// 0) that adds the group's size to a counter with one atomic, and the
// leader's old value is shuffled to the others. Size, rank and the
// shuffled value depend on which lanes are active: unknown to `check`.
// Each thread then writes its own flag.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void aggregate(const int *in, int *counter, int *flags)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0)
      base = atomicAdd(counter, active.size());
    base = active.shfl(base, 0);
    flags[i] = base + active.thread_rank();
  }
}
