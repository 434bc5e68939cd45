//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// Load buffering where thread 0's second load takes its address from the first
// (GenMC litmus test LB+addr): y has two slots, thread 0 reads y[a] then
// stores y[0].
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void lb_addr(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y0(y[0]);
  if (t == 0) {
    int a = X.load(RLX);
    atomic Ya(y[a]);
    Ya.load(RLX);
    Y0.store(1, RLX);
  } else {
    int r = Y0.load(RLX);
    X.store(r, REL);
  }
}
