//pass
//--blockDim=3 --gridDim=1
// executions: 8 (GenMC v0.11.0, RC11)
// Write to read causality, relaxed, with a data dependency in the middle
// thread and an acq_rel fence in the last (GenMC litmus test WRC+dep).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void wrc_dep(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, RLX);
  } else if (t == 1) {
    int r1 = X.load(RLX);
    Y.store(r1, RLX);
  } else {
    Y.load(RLX);
    FENCE(ACQ_REL);
    X.load(RLX);
  }
}
