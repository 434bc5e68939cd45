//pass
//--blockDim=3 --gridDim=1
// executions: 8 (GenMC v0.11.0, RC11)
// As wwmerge1 with a single seq_cst write of x (GenMC litmus test WWmerge2).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void wwmerge2(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.load(ACQ);
    Y.load(SC);
  } else if (t == 1) {
    X.store(2, SC);
  } else {
    Y.store(1, SC);
    X.load(SC);
  }
}
