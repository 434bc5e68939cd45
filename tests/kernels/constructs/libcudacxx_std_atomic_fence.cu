//pass
//--blockDim=256 --gridDim=4
// cuda::std::atomic<int> (system scope) in global memory with explicit
// cuda::std::memory_order_* arguments: fetch_add/fetch_sub/fetch_and/fetch_or/
// fetch_xor, load/store/exchange and both compare_exchange forms; plus a
// cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device).
// Plain memory is only written at the thread's own index.
#include <cuda/atomic>
#include <cuda/std/atomic>

__global__ void ticketing(cuda::std::atomic<int> *next, cuda::std::atomic<int> *mask,
                          cuda::std::atomic<int> *pending, int *myTicket)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;

  int t = next->fetch_add(1, cuda::std::memory_order_relaxed);
  myTicket[gid] = t;
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);

  mask->fetch_or(1 << (gid % 30), cuda::std::memory_order_relaxed);
  mask->fetch_and(~(1 << 30), cuda::std::memory_order_release);
  mask->fetch_xor(t & 0xff, cuda::std::memory_order_acq_rel);

  int before = pending->fetch_sub(1, cuda::std::memory_order_acq_rel);
  if (before == 1)
    pending->store(0, cuda::std::memory_order_seq_cst);

  int expected = 0;
  pending->compare_exchange_strong(expected, -1, cuda::std::memory_order_acq_rel,
                                   cuda::std::memory_order_relaxed);
  int cur = next->load(cuda::std::memory_order_acquire);
  while (!next->compare_exchange_weak(cur, cur | 0x40000000,
                                      cuda::std::memory_order_relaxed)) {
  }
  int old = mask->exchange(0, cuda::std::memory_order_seq_cst);
  myTicket[gid] += old & 1;
}
