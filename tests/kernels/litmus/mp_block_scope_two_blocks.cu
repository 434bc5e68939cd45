//xfail:heterogeneous-race
//--blockDim=1 --gridDim=2
// The same message passing across two blocks: block scope does not include
// the other block's thread, so the flag does not synchronise - a
// heterogeneous race on the flag, a data race on the data, and a stale read.
#include <assert.h>
#include <cuda/atomic>

__global__ void mp(int *data, int *flag)
{
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else if (f.load(cuda::memory_order_acquire) == 1) {
    assert(data[0] == 42);
  }
}
