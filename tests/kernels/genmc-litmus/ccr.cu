//pass
//--blockDim=2 --gridDim=1
// executions: 2 (GenMC v0.11.0, RC11)
// Two compare-exchanges of x from 0, one of them followed by a load of x
// (GenMC litmus test ccr): exactly one succeeds.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void ccr(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    int r = 0;
    X.compare_exchange_strong(r, 42, RLX, RLX);
  } else {
    int r = 0;
    X.compare_exchange_strong(r, 17, RLX, RLX);
    X.load(RLX);
  }
}
