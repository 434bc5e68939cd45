//pass
//--blockDim=4 --gridDim=1
// executions: 28 (GenMC v0.11.0, RC11)
// IRIW where the second write copies a read of x (release), and the readers
// separate their relaxed loads with acq_rel fences (GenMC litmus test
// IRIWish).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void iriwish(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, RLX);
  } else if (t == 1) {
    int r1 = X.load(RLX);
    Y.store(r1, REL);
  } else if (t == 2) {
    X.load(RLX);
    FENCE(ACQ_REL);
    Y.load(RLX);
  } else {
    Y.load(RLX);
    FENCE(ACQ_REL);
    X.load(RLX);
  }
}
