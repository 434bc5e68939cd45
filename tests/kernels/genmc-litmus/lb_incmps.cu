//pass
//--blockDim=4 --gridDim=1
// executions: 15 (GenMC v0.11.0, RC11)
// Load buffering through two acq_rel fetch_add handshakes on z and w (GenMC
// litmus test LB+incMPs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void lb_incmps(int *x, int *y, int *z, int *w)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z), W(*w);
  if (t == 0) {
    X.load(ACQ);
    Z.fetch_add(1, ACQ_REL);
  } else if (t == 1) {
    Z.fetch_add(1, ACQ_REL);
    Y.store(1, REL);
  } else if (t == 2) {
    Y.load(ACQ);
    W.fetch_add(1, ACQ_REL);
  } else {
    W.fetch_add(1, ACQ_REL);
    X.store(1, REL);
  }
}
