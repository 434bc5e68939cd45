//pass
//--blockDim=3 --gridDim=1
// executions: 7 (GenMC v0.11.0, RC11)
// Pattern Z6 with seq_cst fences in threads 0 and 2 and an acquire load in
// thread 1 (GenMC litmus test Z6+acq).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void z6_acq(int *a, int *b, int *c)
{
  int t = threadIdx.x;
  atomic A(*a), B(*b), C(*c);
  if (t == 0) {
    A.store(1, RLX);
    FENCE(SC);
    B.store(1, RLX);
  } else if (t == 1) {
    B.load(ACQ);
    C.store(1, RLX);
  } else {
    C.store(2, RLX);
    FENCE(SC);
    A.load(RLX);
  }
}
