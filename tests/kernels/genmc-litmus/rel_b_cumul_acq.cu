//pass
//--blockDim=4 --gridDim=1
// executions: 16 (GenMC v0.11.0, RC11)
// Cumulativity of a release store through a relaxed copy (y to z) read behind
// an acq_rel fence, plus an acquire reader of y (GenMC litmus test
// rel-B-cumul-acq).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void rel_b_cumul_acq(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    X.store(1, RLX);
    Y.store(1, REL);
  } else if (t == 1) {
    int r1 = Y.load(RLX);
    Z.store(r1, RLX);
  } else if (t == 2) {
    Z.load(RLX);
    FENCE(ACQ_REL);
    X.load(RLX);
  } else {
    Y.load(ACQ);
  }
}
