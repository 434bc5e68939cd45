//pass
//--blockDim=3 --gridDim=1
// executions: 4 (GenMC v0.11.0, RC11)
// Seq_cst fetch_adds on x, two of them guarded by a seq_cst load of y, and a
// seq_cst store to y (GenMC litmus test RMWFix, where the plain C accesses to
// atomic_int are seq_cst).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void rmwfix(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    if (Y.load(SC)) {
      X.fetch_add(1, SC);
      X.fetch_add(1, SC);
    }
  } else if (t == 1) {
    X.fetch_add(1, SC);
  } else {
    Y.store(42, SC);
  }
}
