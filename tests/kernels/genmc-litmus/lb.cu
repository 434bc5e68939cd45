//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// Load buffering with acquire loads and release stores (GenMC litmus test LB):
// both threads reading 1 is forbidden (po and rf are acyclic).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void lb(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    Y.load(ACQ);
    X.store(1, REL);
  } else {
    X.load(ACQ);
    Y.store(1, REL);
  }
}
