//pass
//--blockDim=3 --gridDim=1
// executions: 18 (GenMC v0.11.0, RC11)
// Load buffering with false data dependencies (r ^ r) and a third writer of y
// (GenMC litmus test LB+fr-fr-data+data).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void lb_fr_fr_data_data(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    int r0 = X.load(RLX);
    Y.store(1 + (r0 ^ r0), RLX);
  } else if (t == 1) {
    Y.load(RLX);
    int r1 = Y.load(RLX);
    X.store(1 + (r1 ^ r1), RLX);
  } else {
    Y.store(2, RLX);
  }
}
