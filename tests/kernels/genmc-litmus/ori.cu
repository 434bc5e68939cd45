//pass
//--blockDim=3 --gridDim=1
// executions: 5 (GenMC v0.11.0, RC11)
// A relaxed fetch_add of x then a release store of y, an acquire
// compare-exchange of x from 0 to 1, and a store of x guarded by a relaxed
// load of y (GenMC litmus test ori).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void ori(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.fetch_add(1, RLX);
    Y.store(1, REL);
  } else if (t == 1) {
    int r = 0;
    X.compare_exchange_strong(r, 1, ACQ, ACQ);
  } else {
    if (Y.load(RLX))
      X.store(4, REL);
  }
}
