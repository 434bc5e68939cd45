//pass
//--blockDim=3 --gridDim=1
// executions: 7 (GenMC v0.11.0, RC11)
// A Peterson-like pattern with seq_cst fences in threads 0 and 2 and a
// release/acquire hand-off on z (GenMC litmus test peterZ).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void peterz(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    X.store(1, RLX);
    FENCE(SC);
    Y.load(RLX);
  } else if (t == 1) {
    Y.store(1, RLX);
    Z.store(1, REL);
  } else {
    Z.load(ACQ);
    FENCE(SC);
    X.load(RLX);
  }
}
