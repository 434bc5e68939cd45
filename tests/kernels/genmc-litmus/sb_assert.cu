//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// Store buffering with seq_cst accesses whose results go to plain r[0], r[1];
// after a barrier thread 0 asserts that not both are 0 (GenMC litmus test
// SB+assert, whose main thread asserts after joining).
#include <assert.h>
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void sb_assert(int *x, int *y, int *r)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0) {
    X.store(1, SC);
    r[1] = Y.load(SC);
  } else {
    Y.store(1, SC);
    r[0] = X.load(SC);
  }
  __syncthreads();
  if (t == 0)
    assert(!(r[0] == 0 && r[1] == 0));
}
