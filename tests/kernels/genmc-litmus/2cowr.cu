//pass
//--blockDim=4 --gridDim=1
// executions: 4 (GenMC v0.11.0, RC11)
// Two readers and two writers on two locations, one location each (GenMC
// litmus test 2CoWR): acquire loads, release stores.
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void litmus_2cowr(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y);
  if (t == 0)
    Y.load(ACQ);
  else if (t == 1)
    X.load(ACQ);
  else if (t == 2)
    X.store(1, REL);
  else
    Y.store(1, REL);
}
