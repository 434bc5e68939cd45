//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// An internal read of a release store of y, copied to z, and a copy of z to x
// (GenMC litmus test rfi-preserved).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void rfi_preserved(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    X.load(RLX);
    Y.store(1, REL);
    int b = Y.load(RLX);
    Z.store(b, RLX);
  } else {
    int c = Z.load(RLX);
    X.store(c, RLX);
  }
}
