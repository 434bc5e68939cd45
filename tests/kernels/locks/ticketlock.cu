//pass
//--blockDim=1 --gridDim=2
// A ticket lock: a relaxed fetch_add draws a ticket, an acquire load waits
// for it to be served, a release store serves the next one; it guards a
// plain counter update (seed 000, Table 1, ticketlock).
#include <cuda/atomic>

__global__ void ticketlock(unsigned *next, unsigned *serving, int *counter)
{
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> n(*next);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> s(*serving);
  unsigned ticket = n.fetch_add(1, cuda::memory_order_relaxed);
  while (s.load(cuda::memory_order_acquire) != ticket) {
  }
  counter[0] = counter[0] + 1;
  s.store(ticket + 1, cuda::memory_order_release);
}
