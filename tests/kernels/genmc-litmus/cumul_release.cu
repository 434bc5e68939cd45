//pass
//--blockDim=3 --gridDim=1
// executions: 8 (GenMC v0.11.0, RC11)
// Cumulativity of a release store through a relaxed copy of y to z, read
// behind an acq_rel fence (GenMC litmus test cumul-release).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void cumul_release(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    X.store(1, RLX);
    Y.store(1, REL);
  } else if (t == 1) {
    int r1 = Y.load(RLX);
    Z.store(r1, RLX);
  } else {
    Z.load(RLX);
    FENCE(ACQ_REL);
    X.load(RLX);
  }
}
