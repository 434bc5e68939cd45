//xfail:heterogeneous-race
//--blockDim=1 --gridDim=2
// Seed 000, Figure 2 / the SEG variant of section 4.2: message passing
// whose flag is block-scoped while writer and reader are in different
// blocks. `explore --repair` widens both flag accesses to device scope
// (at the atomic_ref's declaration); the data accesses then synchronise.
#include <cuda/atomic>

__global__ void mp(int *data, int *flag)
{
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else if (f.load(cuda::memory_order_acquire) == 1) {
    int seen = data[0];
    data[1] = seen;
  }
}
