//pass
//--blockDim=3 --gridDim=1
// executions: 22 (GenMC v0.11.0, RC11)
// A release writer of x and 2 threads that each read x (relaxed) and then
// store their index with release (GenMC litmus test wrw with -DN=2).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void wrw_2(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.store(1, REL);
  } else {
    X.load(RLX);
    X.store(t - 1, REL);
  }
}
