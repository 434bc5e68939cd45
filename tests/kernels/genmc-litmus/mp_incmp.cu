//pass
//--blockDim=3 --gridDim=1
// executions: 7 (GenMC v0.11.0, RC11)
// Message passing whose reader hands over through an acq_rel fetch_add on z to
// a second reader of x (GenMC litmus test MP+incMP).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void mp_incmp(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    Y.load(ACQ);
    Z.fetch_add(1, ACQ_REL);
  } else if (t == 1) {
    Z.fetch_add(1, ACQ_REL);
    X.load(ACQ);
  } else {
    X.store(1, REL);
    Y.store(1, REL);
  }
}
