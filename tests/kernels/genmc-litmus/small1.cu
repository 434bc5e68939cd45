//pass
//--blockDim=3 --gridDim=1
// executions: 8 (GenMC v0.11.0, RC11)
// A reader of y, z, x (acquire), a writer of x and a writer of y then z
// (release) (GenMC litmus test small1).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void small1(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    Y.load(ACQ);
    Z.load(ACQ);
    X.load(ACQ);
  } else if (t == 1) {
    X.store(1, REL);
  } else {
    Y.store(1, REL);
    Z.store(1, REL);
  }
}
