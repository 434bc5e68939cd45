//pass
//--blockDim=3 --gridDim=1
// executions: 17 (GenMC v0.11.0, RC11)
// A reader of x (acquire) then y (seq_cst), a writer of x=1 then x=2
// (seq_cst), and a writer of y that reads x (seq_cst) (GenMC litmus test
// WWmerge1). GenMC's RC11 orders SC events by [SC]; po; hb; po; [SC], where
// RC11 (Lahav et al. 2017) and seed 000 only have po|!=loc; hb; po|!=loc and
// hb|loc: GenMC forbids, and warpsafe allows, the execution where thread 0
// reads x = 2 and y = 0 and thread 2 reads x = 0 (the path from the store of 1
// to the load of y starts with a po edge to the same location x), so warpsafe
// has 18 executions (see crates/mc/tests/genmc_counts.rs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void wwmerge1(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.load(ACQ);
    Y.load(SC);
  } else if (t == 1) {
    X.store(1, SC);
    X.store(2, SC);
  } else {
    Y.store(1, SC);
    X.load(SC);
  }
}
