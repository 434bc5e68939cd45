//pass
//--blockDim=4 --gridDim=1
// executions: 180 (GenMC v0.11.0, RC11)
// Six fetch_adds of one lock word by four threads: two relaxed, an acquire
// then a relaxed, a release, and a relaxed (GenMC litmus test viktor-relseq).
// GenMC uses C++20 release sequences, where the relaxed store does not
// continue the release sequence of the release store before it, so reading it
// does not synchronise and the plain accesses race (GenMC runs this test with
// -disable-race-detection). warpsafe follows RC11 (seed 000), where po-later
// stores to the same location continue the release sequence: the reader
// synchronises, there is no race, and there are fewer executions (see
// crates/mc/tests/genmc_counts.rs).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void viktor_relseq(int *lock)
{
  int t = threadIdx.x;
  atomic L(*lock);
  if (t == 0) {
    L.fetch_add(1, RLX);
    L.fetch_add(1, RLX);
  } else if (t == 1) {
    L.fetch_add(1, ACQ);
    L.fetch_add(1, RLX);
  } else if (t == 2) {
    L.fetch_add(1, REL);
  } else {
    L.fetch_add(1, RLX);
  }
}
