//xfail:data-race
//--blockDim=1 --gridDim=2
// A test-and-test-and-set lock: spin on a relaxed load until the lock looks
// free, then try a compare-and-swap (acquire on success); a release store
// frees it. It guards a plain counter update (seed 000, Table 1, ttaslock).
// Variant 1: the release is weakened to relaxed, so the lock no longer
// orders the critical sections: they race.
#include <cuda/atomic>

__global__ void ttaslock(int *lock, int *counter)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
  while (true) {
    while (l.load(cuda::memory_order_relaxed) != 0) {
    }
    int expected = 0;
    if (l.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                  cuda::memory_order_relaxed))
      break;
  }
  counter[0] = counter[0] + 1;
  l.store(0, cuda::memory_order_relaxed);
}
