//pass
//--blockDim=2 --gridDim=1
// executions: 2 (GenMC v0.11.0, RC11)
// Message passing of a plain x through a release store and an acquire load of
// y (GenMC litmus test MP+rel+acq): the plain read only happens after
// synchronising, so there is no race.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void mp_rel_acq(int *x, int *y)
{
  int t = threadIdx.x;
  atomic Y(*y);
  if (t == 0) {
    x[0] = 1;
    Y.store(1, REL);
  } else {
    if (Y.load(ACQ))
      x[0];
  }
}
