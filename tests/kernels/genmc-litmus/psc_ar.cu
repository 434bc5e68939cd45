//pass
//--blockDim=3 --gridDim=1
// executions: 1 (GenMC v0.11.0, RC11)
// Partial SC order through seq_cst fences, with assumptions that keep only the
// executions where thread 0 sees y = 1 and z = 0 and thread 2 sees x = 1
// (GenMC litmus test psc-ar; __VERIFIER_assume is __builtin_assume here,
// blocking the execution when false). Known warpsafe bug: the DPOR explorer
// drops a partial execution as soon as an assumption is false, so it misses
// the executions where a later write revisits a read before the assumption and
// makes it true; it finds 0 executions, the reference enumerator (explore
// --explorer reference) finds GenMC's count (see crates/mc/tests/genmc_counts.rs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void psc_ar(int *x, int *y, int *z, int *res)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    int a = Y.load(RLX);
    __builtin_assume(a == 1);
    FENCE(SC);
    int b = Z.load(RLX);
    __builtin_assume(b == 0);
  } else if (t == 1) {
    Z.store(1, RLX);
    FENCE(SC);
    X.store(1, RLX);
  } else {
    int d = X.load(RLX);
    if (d == 1)
      Y.store(1, RLX);
    __builtin_assume(d == 1);
    res[0] = d;
  }
}
