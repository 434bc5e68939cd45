//pass
//--blockDim=2 --gridDim=1
// executions: 1 (GenMC v0.11.0, RC11)
// Seq_cst stores of x then y against an acquire load of x and a seq_cst load
// of y, assumed to see x = 1 and y = 0 (GenMC litmus test psc-sbhbsb;
// __VERIFIER_assume is __builtin_assume here, blocking the execution when
// false): that execution is consistent (no psc edge from the store of x to the
// load of y), so one execution is complete.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void psc_sbhbsb(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, SC);
    Y.store(1, SC);
  } else {
    int a = X.load(ACQ);
    __builtin_assume(a == 1);
    int b = Y.load(SC);
    __builtin_assume(b == 0);
  }
}
