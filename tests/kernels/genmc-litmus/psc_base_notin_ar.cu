//pass
//--blockDim=3 --gridDim=1
// executions: 2 (GenMC v0.11.0, RC11)
// Seq_cst stores of y (the C test's plain accesses to atomic_int) and relaxed
// accesses under assumptions (GenMC litmus test psc-base-notin-ar;
// __VERIFIER_assume is __builtin_assume here, blocking the execution when
// false). GenMC v0.11.0 rejects the original's own declaration of
// __VERIFIER_assume; with that line removed and -disable-ipr (in-place
// revisiting reports the unordered writes of y as an error) it explores the 2
// executions its test suite expects. Known warpsafe bug: the DPOR explorer
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

__global__ void psc_base_notin_ar(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    int a = X.load(RLX);
    __builtin_assume(a == 2);
    Y.store(1, SC);
  } else if (t == 1) {
    Y.store(2, SC);
  } else {
    int b = Y.load(RLX);
    __builtin_assume(b == 2);
    X.store(b, RLX);
  }
}
