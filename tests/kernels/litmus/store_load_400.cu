//pass
//--blockDim=1 --gridDim=1
// One thread stores 1..400 to a location and loads it back after each
// store (relaxed, as in GenMC's coherence tests). Coherence leaves each load
// one source, the store just before it: the explorer must try no other
// (issue 12: it tried and discarded 2N²+7 inconsistent executions, N=400
// took 38 s), and every assertion holds.
#include <cuda/atomic>

#define P(i)                                                               \
  X.store((i) + 1, cuda::memory_order_relaxed);                            \
  assert(X.load(cuda::memory_order_relaxed) == (i) + 1);
#define P10(b) \
  P((b) + 0) \
  P((b) + 1) \
  P((b) + 2) \
  P((b) + 3) \
  P((b) + 4) \
  P((b) + 5) \
  P((b) + 6) \
  P((b) + 7) \
  P((b) + 8) \
  P((b) + 9)
#define P100(b) \
  P10((b) + 0) \
  P10((b) + 10) \
  P10((b) + 20) \
  P10((b) + 30) \
  P10((b) + 40) \
  P10((b) + 50) \
  P10((b) + 60) \
  P10((b) + 70) \
  P10((b) + 80) \
  P10((b) + 90)

__global__ void store_load(int *x)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
  P100(0) P100(100) P100(200) P100(300)
}
