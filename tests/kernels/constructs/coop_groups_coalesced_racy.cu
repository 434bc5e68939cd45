//xfail:data-race
//--blockDim=64 --gridDim=2
// The aggregated counter with each leader storing its group's size with
// a plain write to one slot per warp: the lanes with and without a
// positive input form two coalesced groups in one warp, and both leaders
// write the same slot.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void aggregate(const int *in, int *perWarp)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    cg::coalesced_group positive = cg::coalesced_threads();
    if (positive.thread_rank() == 0)
      perWarp[i / 32] = positive.size();
  } else {
    cg::coalesced_group rest = cg::coalesced_threads();
    if (rest.thread_rank() == 0)
      perWarp[i / 32] = rest.size();
  }
}
