//pass
//--blockDim=4 --gridDim=1
// executions: 24 (GenMC v0.11.0, RC11)
// A release store of 5 to x, a compare-exchange from 1 to 2, and two relaxed
// fetch_adds (GenMC litmus test wcii).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void wcii(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.store(5, REL);
  } else if (t == 1) {
    int expected = 1;
    X.compare_exchange_strong(expected, 2, RLX, RLX);
  } else {
    X.fetch_add(1, RLX);
  }
}
