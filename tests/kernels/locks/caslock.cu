//pass
//--blockDim=1 --gridDim=2
// A spin lock taken by compare-and-swap (acquire on success) and released by
// a store (release), at device scope, guarding a plain counter update (seed
// 000, Table 1, caslock).
#include <cuda/atomic>

__global__ void caslock(int *lock, int *counter)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
  int expected = 0;
  while (!l.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                    cuda::memory_order_relaxed)) {
    expected = 0;
  }
  counter[0] = counter[0] + 1;
  l.store(0, cuda::memory_order_release);
}
