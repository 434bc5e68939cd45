//pass
//--blockDim=4 --gridDim=1
// executions: 14 (GenMC v0.11.0, RC11)
// As mpu2_rel_acq, the writer with a release fence and a relaxed store (GenMC
// litmus test MPU2+relf+acq).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void mpu2_relf_acq(int *x, int *y)
{
  int t = threadIdx.x;
  atomic Y(*y);
  if (t == 0) {
    x[0] = 1;
    FENCE(REL);
    Y.store(1, RLX);
  } else if (t == 1) {
    int expected = 2;
    Y.compare_exchange_strong(expected, 3, RLX, RLX);
  } else if (t == 2) {
    int expected = 1;
    Y.compare_exchange_strong(expected, 2, RLX, RLX);
  } else {
    if (Y.load(ACQ) > 2)
      x[0] = 2;
  }
}
