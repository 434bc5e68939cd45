//pass
//--blockDim=2 --gridDim=1
// executions: 4 (GenMC v0.11.0, RC11)
// Pattern S, all relaxed (GenMC litmus test S): thread 0 stores x then y,
// thread 1 reads y then stores x.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void s(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(2, RLX);
    Y.store(1, RLX);
  } else {
    Y.load(RLX);
    X.store(1, RLX);
  }
}
