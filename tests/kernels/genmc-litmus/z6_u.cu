//pass
//--blockDim=3 --gridDim=1
// executions: 22 (GenMC v0.11.0, RC11)
// Pattern Z6 with an update: seq_cst store of x and release store of y, a
// seq_cst fetch_add on y and relaxed re-read, a seq_cst store of y and load of
// x (GenMC litmus test Z6.U). GenMC's RC11 orders SC events by [SC]; po; hb;
// po; [SC], where RC11 (Lahav et al. 2017) and seed 000 only have po|!=loc;
// hb; po|!=loc and hb|loc: GenMC splits the update into a read and a write,
// po-related at the same location, and forbids, as warpsafe does not, the two
// executions where the update reads the release store, the store of 3 is
// co-last and thread 2 reads x = 0, so warpsafe has 24 executions (see
// crates/mc/tests/genmc_counts.rs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void z6_u(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, SC);
    Y.store(1, REL);
  } else if (t == 1) {
    Y.fetch_add(1, SC);
    Y.load(RLX);
  } else {
    Y.store(3, SC);
    X.load(SC);
  }
}
