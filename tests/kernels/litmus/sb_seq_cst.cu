//pass
//--blockDim=2 --gridDim=1
// Store buffering with seq_cst atomics: at least one thread sees the other's
// store; a barrier then lets thread 0 check the two results.
#include <assert.h>
#include <cuda/atomic>

__global__ void sb(int *x, int *y)
{
  __shared__ int r[2];
  cuda::atomic_ref<int, cuda::thread_scope_block> ax(*x), ay(*y);
  if (threadIdx.x == 0) {
    ax.store(1, cuda::memory_order_seq_cst);
    r[0] = ay.load(cuda::memory_order_seq_cst);
  } else {
    ay.store(1, cuda::memory_order_seq_cst);
    r[1] = ax.load(cuda::memory_order_seq_cst);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    assert(r[0] == 1 || r[1] == 1);
}
