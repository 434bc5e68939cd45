//pass
//--blockDim=3 --gridDim=1
// executions: 12 (GenMC v0.11.0, RC11)
// A reader of x twice (acquire) and two release writers of x (GenMC litmus
// test default).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void default(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.load(ACQ);
    X.load(ACQ);
  } else if (t == 1) {
    X.store(1, REL);
  } else {
    X.store(2, REL);
  }
}
