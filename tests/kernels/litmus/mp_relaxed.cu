//xfail:assert
//--blockDim=2 --gridDim=1
// Message passing with a relaxed flag: nothing orders the data, so the
// reader may see the flag and stale data (and the data accesses race).
#include <assert.h>
#include <cuda/atomic>

__global__ void mp(int *data, int *flag)
{
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (threadIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_relaxed);
  } else if (f.load(cuda::memory_order_relaxed) == 1) {
    assert(data[0] == 42);
  }
}
