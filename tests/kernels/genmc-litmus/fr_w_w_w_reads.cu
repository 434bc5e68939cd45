//pass
//--blockDim=4 --gridDim=1
// executions: 210 (GenMC v0.11.0, RC11)
// Three relaxed writers of x and a reader of x four times (GenMC litmus test
// fr+w+w+w+reads).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void fr_w_w_w_reads(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t < 3) {
    X.store(t + 1, RLX);
  } else {
    X.load(RLX);
    X.load(RLX);
    X.load(RLX);
    X.load(RLX);
  }
}
