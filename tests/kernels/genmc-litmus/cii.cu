//pass
//--blockDim=3 --gridDim=1
// executions: 6 (GenMC v0.11.0, RC11)
// A compare-exchange of x from 1 to 2 racing with two relaxed fetch_adds
// (GenMC litmus test cii).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void cii(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    int r = 1;
    X.compare_exchange_strong(r, 2, RLX, RLX);
  } else {
    X.fetch_add(1, RLX);
  }
}
