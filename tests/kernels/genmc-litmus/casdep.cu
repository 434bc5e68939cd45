//pass
//--blockDim=2 --gridDim=1
// executions: 2 (GenMC v0.11.0, RC11)
// A compare-exchange of y whose expected value is read from x, and whose
// failure value is then stored to z (GenMC litmus test casdep).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void casdep(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    int a = X.load(RLX);
    Y.compare_exchange_strong(a, 1, RLX, RLX);
    Z.store(a, RLX);
  } else {
    Y.store(2, RLX);
  }
}
