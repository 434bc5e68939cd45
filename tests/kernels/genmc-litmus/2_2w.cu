//pass
//--blockDim=2 --gridDim=1
// executions: 4 (GenMC v0.11.0, RC11)
// Two threads each store to x and y in opposite orders, all release (GenMC
// litmus test 2+2W).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void litmus_2_2w(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, REL);
    Y.store(2, REL);
  } else {
    Y.store(1, REL);
    X.store(2, REL);
  }
}
