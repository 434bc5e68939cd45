//pass
//--blockDim=3 --gridDim=1
// executions: 9 (GenMC v0.11.0, RC11)
// Relaxed detour pattern: thread 1 stores z-1 to x, reads x back and copies it
// to y, thread 2 copies y to z (GenMC litmus test detour).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__global__ void detour(int *x, int *y, int *z)
{
  int t = threadIdx.x;
  atomic X(*x), Y(*y), Z(*z);
  if (t == 0) {
    X.store(1, RLX);
  } else if (t == 1) {
    int a = Z.load(RLX);
    X.store(a - 1, RLX);
    int b = X.load(RLX);
    Y.store(b, RLX);
  } else {
    int c = Y.load(RLX);
    Z.store(c, RLX);
  }
}
