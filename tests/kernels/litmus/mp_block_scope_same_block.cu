//pass
//--blockDim=2 --gridDim=1
// Message passing with block-scoped release/acquire (seed 000, Figure 2):
// within one block the scopes include both threads, so a reader that sees
// the flag also sees the data.
#include <assert.h>
#include <cuda/atomic>

__global__ void mp(int *data, int *flag)
{
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (threadIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else if (f.load(cuda::memory_order_acquire) == 1) {
    assert(data[0] == 42);
  }
}
