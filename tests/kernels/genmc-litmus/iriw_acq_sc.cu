//pass
//--blockDim=4 --gridDim=1
// executions: 16 (GenMC v0.11.0, RC11)
// Independent reads of independent writes, seq_cst writes, readers with an
// acquire load then a seq_cst load (GenMC litmus test IRIW-acq-sc): RC11
// allows the readers to disagree.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void iriw_acq_sc(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, SC);
  } else if (t == 1) {
    X.load(ACQ);
    Y.load(SC);
  } else if (t == 2) {
    Y.load(ACQ);
    X.load(SC);
  } else {
    Y.store(1, SC);
  }
}
