//pass
//--blockDim=3 --gridDim=1
// executions: 9 (GenMC v0.11.0, RC11)
// An acquire reader of x, a reader-then-writer of x and a writer of x (GenMC
// litmus test small0).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void small0(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.load(ACQ);
  } else if (t == 1) {
    X.load(ACQ);
    X.store(1, REL);
  } else {
    X.store(2, REL);
  }
}
