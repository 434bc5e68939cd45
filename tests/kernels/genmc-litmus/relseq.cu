//pass
//--blockDim=3 --gridDim=1
// executions: 20 (GenMC v0.11.0, RC11)
// Release sequence of y: a release store of 1 then a relaxed store of 2 in
// thread 0, a relaxed exchange of y in thread 1, and a reader of y and x
// behind an acq_rel fence (GenMC litmus test relseq). GenMC uses C++20 release
// sequences, where the relaxed store of 2 does not continue the release
// sequence of the store of 1, so the reader that sees 2, or the exchange that
// read 2, does not synchronise with thread 0. warpsafe follows RC11 (seed
// 000), where po-later stores to the same location continue the release
// sequence, so it does, and x must then be read as 1: 16 executions instead of
// 20 (see crates/mc/tests/genmc_counts.rs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void relseq(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, RLX);
    Y.store(1, REL);
    Y.store(2, RLX);
  } else if (t == 1) {
    Y.exchange(3, RLX);
  } else {
    Y.load(RLX);
    FENCE(ACQ_REL);
    X.load(RLX);
  }
}
