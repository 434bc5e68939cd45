//pass
//--blockDim=1 --gridDim=2
// Message passing across two blocks with device-scoped release/acquire:
// synchronises, so the reader never sees stale data.
#include <assert.h>
#include <cuda/atomic>

__global__ void mp(int *data, int *flag)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else if (f.load(cuda::memory_order_acquire) == 1) {
    assert(data[0] == 42);
  }
}
