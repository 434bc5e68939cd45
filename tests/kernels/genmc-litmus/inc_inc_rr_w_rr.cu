//pass
//--blockDim=5 --gridDim=1
// executions: 600 (GenMC v0.11.0, RC11)
// Two relaxed increments of x, a store of 42 and two readers of x twice, whose
// results go to plain r[0..3]; after a barrier thread 0 asserts the outcome
// the GenMC test's main thread asserts after joining (GenMC litmus test
// inc+inc+RR+W+RR).
#include <assert.h>
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void inc_inc_rr_w_rr(int *x, int *r)
{
  int t = threadIdx.x;
  atomic X(*x);
  if (t < 2) {
    X.fetch_add(1, RLX);
  } else if (t == 2) {
    r[0] = X.load(RLX);
    r[1] = X.load(RLX);
  } else if (t == 3) {
    X.store(42, RLX);
  } else {
    r[2] = X.load(RLX);
    r[3] = X.load(RLX);
  }
  __syncthreads();
  if (t == 0)
    assert(!(r[0] == 42 && r[1] == 2 && r[2] == 1 && r[3] == 42));
}
