//pass
//--blockDim=3 --gridDim=1
// executions: 9 (GenMC v0.11.0, RC11)
// Message passing of two pairs (a, b) and (c, d) through one acq_rel fence in
// the writer, read by two readers with acq_rel fences (GenMC litmus test MP2).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void mp2(int *a, int *b, int *c, int *d)
{
  int t = threadIdx.x;
  atomic A(*a), B(*b), C(*c), D(*d);
  if (t == 0) {
    A.store(1, RLX);
    C.store(1, RLX);
    FENCE(ACQ_REL);
    B.store(1, RLX);
    D.store(1, RLX);
  } else if (t == 1) {
    B.load(RLX);
    FENCE(ACQ_REL);
    A.load(RLX);
  } else {
    D.load(RLX);
    FENCE(ACQ_REL);
    C.load(RLX);
  }
}
