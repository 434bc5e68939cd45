//pass
//--blockDim=3 --gridDim=1
// executions: 8 (GenMC v0.11.0, RC11)
// Two writers of x that read back, one also reading y, and a writer of y
// (GenMC litmus test JLT).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void jlt(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, REL);
    Y.load(ACQ);
    X.load(ACQ);
  } else if (t == 1) {
    X.store(2, REL);
    X.load(ACQ);
  } else {
    Y.store(3, REL);
  }
}
