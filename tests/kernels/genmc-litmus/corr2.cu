//pass
//--blockDim=4 --gridDim=1
// executions: 72 (GenMC v0.11.0, RC11)
// Two writers of x and two readers that read it twice each (GenMC litmus test
// CoRR2).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void corr2(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.store(1, REL);
  } else if (t == 1) {
    X.store(2, REL);
  } else {
    X.load(ACQ);
    X.load(ACQ);
  }
}
