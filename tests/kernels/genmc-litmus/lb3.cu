//pass
//--blockDim=3 --gridDim=1
// executions: 7 (GenMC v0.11.0, RC11)
// A ring of three relaxed load-buffering threads over a, b, c (GenMC litmus
// test LB3).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void lb3(int *a, int *b, int *c)
{
  int t = threadIdx.x;
  atomic A(*a), B(*b), C(*c);
  if (t == 0) {
    A.load(RLX);
    B.store(1, RLX);
  } else if (t == 1) {
    B.load(RLX);
    C.store(1, RLX);
  } else {
    C.load(RLX);
    A.store(1, RLX);
  }
}
