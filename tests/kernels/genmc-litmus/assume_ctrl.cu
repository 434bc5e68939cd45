//pass
//--blockDim=2 --gridDim=1
// executions: 4 (GenMC v0.11.0, RC11)
// Assumptions over relaxed loads in both threads (GenMC litmus test
// assume-ctrl; GenMC's __VERIFIER_assume is __builtin_assume here, which
// warpsafe treats as blocking the execution when false): thread 0 assumes y <
// 2 or y > 3 (short-circuit, a second load) and stores x, thread 1 assumes x <
// 3 and stores y twice around a seq_cst fence. Known warpsafe bug: the DPOR
// explorer drops a partial execution as soon as an assumption is false, so it
// misses the executions where a later write revisits a read before the
// assumption and makes it true; it finds 2 executions, the reference
// enumerator (explore --explorer reference) finds GenMC's count (see
// crates/mc/tests/genmc_counts.rs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void assume_ctrl(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    bool ok = 2 > Y.load(RLX);
    if (!ok)
      ok = Y.load(RLX) > 3;
    __builtin_assume(ok);
    X.store(1, RLX);
  } else {
    __builtin_assume(X.load(RLX) < 3);
    Y.store(3, RLX);
    FENCE(SC);
    Y.store(4, RLX);
  }
}
