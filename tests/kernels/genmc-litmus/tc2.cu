//pass
//--blockDim=2 --gridDim=1
// executions: 4 (GenMC v0.11.0, RC11)
// Thread 0 reads x twice and stores y when both reads agree; thread 1 copies y
// to x (GenMC litmus test TC2).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void tc2(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    int r1 = X.load(RLX);
    int r2 = X.load(RLX);
    if (r1 == r2)
      Y.store(1, RLX);
  } else {
    int r3 = Y.load(RLX);
    X.store(r3, RLX);
  }
}
