//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// Load buffering where the store is guarded by an always-true test of the
// value read and the other thread copies y to x (GenMC litmus test TC1): no
// out-of-thin-air value.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void tc1(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    int r1 = X.load(RLX);
    if (r1 >= 0)
      Y.store(1, RLX);
  } else {
    int r2 = Y.load(RLX);
    X.store(r2, RLX);
  }
}
