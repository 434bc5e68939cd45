//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// A relaxed fetch_add of x against a store then load of x (GenMC litmus test
// rinc+wr).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void rinc_wr(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.fetch_add(1, RLX);
  } else {
    X.store(2, RLX);
    X.load(RLX);
  }
}
