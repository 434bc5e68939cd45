//pass
//--blockDim=3 --gridDim=1
// executions: 20 (GenMC v0.11.0, RC11)
// Two relaxed writers of x and a reader that reads x three times and asserts
// it never sees 1, 2, 1 (GenMC litmus test W+RRR+W).
#include <assert.h>
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void w_rrr_w(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.store(1, RLX);
  } else if (t == 1) {
    int a = X.load(RLX);
    int b = X.load(RLX);
    int c = X.load(RLX);
    assert(!(a == 1 && b == 2 && c == 1));
  } else {
    X.store(2, RLX);
  }
}
