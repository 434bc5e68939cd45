//pass
//--blockDim=4 --gridDim=1
// executions: 14 (GenMC v0.11.0, RC11)
// Message passing of a plain x through a chain of two relaxed
// compare-exchanges (1 to 2, 2 to 3) that continue the release sequence of y
// (GenMC litmus test MPU2+rel+acq).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void mpu2_rel_acq(int *x, int *y)
{
  int t = threadIdx.x;
  atomic Y(*y);
  if (t == 0) {
    x[0] = 1;
    Y.store(1, REL);
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
