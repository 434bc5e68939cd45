//pass
//--blockDim=2 --gridDim=1
// executions: 4 (GenMC v0.11.0, RC11)
// Relaxed stores of y then x separated by an acq_rel fence, against relaxed
// exchanges of x then y (GenMC litmus test atomicpo).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void atomicpo(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    Y.store(1, RLX);
    FENCE(ACQ_REL);
    X.store(1, RLX);
  } else {
    X.exchange(1, RLX);
    Y.exchange(1, RLX);
  }
}
