//pass
//--blockDim=2 --gridDim=1
// executions: 2 (GenMC v0.11.0, RC11)
// Message passing of a plain x: release fence and acquire fence around relaxed
// accesses (GenMC litmus test MP+relf+acqf).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void mp_relf_acqf(int *x, int *y)
{
  int t = threadIdx.x;
  atomic Y(*y);
  if (t == 0) {
    x[0] = 1;
    FENCE(REL);
    Y.store(1, RLX);
  } else {
    if (Y.load(RLX)) {
      FENCE(ACQ);
      x[0];
    }
  }
}
