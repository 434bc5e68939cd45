//xfail:assert
//--blockDim=2 --gridDim=1
// Store buffering with relaxed atomics: both threads may read the initial
// values, so thread 0's check after the barrier can fail.
#include <assert.h>
#include <cuda/atomic>

__global__ void sb(int *x, int *y)
{
  __shared__ int r[2];
  cuda::atomic_ref<int, cuda::thread_scope_block> ax(*x), ay(*y);
  if (threadIdx.x == 0) {
    ax.store(1, cuda::memory_order_relaxed);
    r[0] = ay.load(cuda::memory_order_relaxed);
  } else {
    ay.store(1, cuda::memory_order_relaxed);
    r[1] = ax.load(cuda::memory_order_relaxed);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    assert(r[0] == 1 || r[1] == 1);
}
