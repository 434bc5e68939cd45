//pass
//--blockDim=128 --gridDim=4
// cuda::atomic_ref<int, cuda::thread_scope_device> over plain global ints that
// are only ever accessed through atomic_ref: load, store, exchange, fetch_add,
// fetch_sub, fetch_and, fetch_or, fetch_xor, fetch_min, fetch_max,
// compare_exchange_strong and a compare_exchange_weak retry loop, each with an
// explicit cuda::memory_order_*.
#include <cuda/atomic>

__global__ void atomicRefOps(int *counters, const int *in, int *out)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];

  cuda::atomic_ref<int, cuda::thread_scope_device> total(counters[0]);
  cuda::atomic_ref<int, cuda::thread_scope_device> bits(counters[1]);
  cuda::atomic_ref<int, cuda::thread_scope_device> hi(counters[2]);
  cuda::atomic_ref<int, cuda::thread_scope_device> lo(counters[3]);
  cuda::atomic_ref<int, cuda::thread_scope_device> owner(counters[4]);
  cuda::atomic_ref<int, cuda::thread_scope_device> last(counters[5]);

  total.fetch_add(v, cuda::memory_order_relaxed);
  total.fetch_sub(1, cuda::memory_order_relaxed);
  bits.fetch_or(1 << (threadIdx.x % 31), cuda::memory_order_relaxed);
  bits.fetch_and(~0x1, cuda::memory_order_acq_rel);
  bits.fetch_xor(v, cuda::memory_order_release);
  hi.fetch_max(v, cuda::memory_order_relaxed);
  lo.fetch_min(v, cuda::memory_order_relaxed);

  int expected = 0;
  bool won = owner.compare_exchange_strong(expected, gid + 1,
                                           cuda::memory_order_acq_rel,
                                           cuda::memory_order_acquire);
  int prev = last.exchange(gid, cuda::memory_order_seq_cst);

  int cur = total.load(cuda::memory_order_relaxed);
  while (!total.compare_exchange_weak(cur, min(cur + 1, 1 << 30),
                                      cuda::memory_order_relaxed)) {
  }

  if (won)
    last.store(-1, cuda::memory_order_release);
  int seen = last.load(cuda::memory_order_acquire);
  out[gid] = prev + seen + (won ? 1 : 0);
}
