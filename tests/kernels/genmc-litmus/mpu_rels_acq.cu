//pass
//--blockDim=3 --gridDim=1
// executions: 13 (GenMC v0.11.0, RC11)
// As mpu_rel_acq where the release store of 0 is followed by a relaxed store
// of 1 (GenMC litmus test MPU+rels+acq). GenMC uses C++20 release sequences,
// where the relaxed store does not continue the release sequence of the
// release store before it, so reading it does not synchronise and the plain
// accesses race (GenMC runs this test with -disable-race-detection). warpsafe
// follows RC11 (seed 000), where po-later stores to the same location continue
// the release sequence: the reader synchronises, there is no race, and there
// are fewer executions (see crates/mc/tests/genmc_counts.rs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void mpu_rels_acq(int *x, int *y)
{
  int t = threadIdx.x;
  atomic Y(*y);
  if (t == 0) {
    x[0] = 1;
    Y.store(0, REL);
    Y.store(1, RLX);
  } else if (t == 1) {
    Y.fetch_add(1, RLX);
  } else {
    if (Y.load(ACQ) > 1)
      x[0] = 2;
  }
}
