//pass
//--blockDim=3 --gridDim=1
// executions: 0 (GenMC v0.11.0, RC11)
// Three threads whose seq_cst accesses are constrained by assumptions that no
// consistent execution meets (GenMC litmus test WWR+2WR, run with
// -disable-ipr): every execution is blocked by an assumption, so none is
// complete. GenMC reports 8 blocked executions.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void wwr_2wr(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    X.store(1, SC);
    Y.store(1, SC);
    __builtin_assume(Z.load(SC) == 0);
  } else if (t == 1) {
    Z.store(1, SC);
    __builtin_assume(Y.load(SC) == 2);
  } else {
    Y.store(2, SC);
    __builtin_assume(X.load(SC) == 0);
  }
}
