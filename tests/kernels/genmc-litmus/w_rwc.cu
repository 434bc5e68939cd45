//pass
//--blockDim=3 --gridDim=1
// executions: 7 (GenMC v0.11.0, RC11)
// Write to read causality through a release/acquire pair on z and seq_cst
// fences (GenMC litmus test W+RWC).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void w_rwc(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    X.store(1, RLX);
    Z.store(1, REL);
  } else if (t == 1) {
    Z.load(ACQ);
    FENCE(SC);
    Y.load(RLX);
  } else {
    Y.store(1, RLX);
    FENCE(SC);
    X.load(RLX);
  }
}
