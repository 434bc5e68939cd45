//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// Write then read of x against a write of x (GenMC litmus test CoWR): the read
// sees its own write or a co-later one.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void cowr(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.store(1, REL);
    X.load(ACQ);
  } else {
    X.store(2, REL);
  }
}
