//pass
//--blockDim=2 --gridDim=1
// executions: 6 (GenMC v0.11.0, RC11)
// Coherence of two reads (GenMC litmus test CoRR): one thread stores 1 then 2
// to x, the other reads x twice; the reads never go backwards in co.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void corr(int *x)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t == 0) {
    X.store(1, REL);
    X.store(2, REL);
  } else {
    X.load(ACQ);
    X.load(ACQ);
  }
}
