//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// Load buffering, all relaxed (GenMC litmus test LB2): RC11 forbids the
// load-buffering outcome (po and rf acyclic), so three executions.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void lb2(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.load(RLX);
    Y.store(1, RLX);
  } else {
    Y.load(RLX);
    X.store(1, RLX);
  }
}
