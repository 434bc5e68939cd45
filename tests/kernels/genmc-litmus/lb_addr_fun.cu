//pass
//--blockDim=2 --gridDim=1
// executions: 3 (GenMC v0.11.0, RC11)
// As lb_addr with thread 0's dependent load and store in a __device__
// function that takes the loaded value (GenMC litmus test LB+addr-fun).
#include <cuda/atomic>

#define RLX cuda::memory_order_relaxed
#define ACQ cuda::memory_order_acquire
#define REL cuda::memory_order_release
#define ACQ_REL cuda::memory_order_acq_rel
#define SC cuda::memory_order_seq_cst
#define FENCE(order) cuda::atomic_thread_fence(order, cuda::thread_scope_device)
typedef cuda::atomic_ref<int, cuda::thread_scope_device> atomic;

__device__ void load_store(int *y, int a)
{
  atomic Ya(y[a]), Y0(y[0]);
  Ya.load(RLX);
  Y0.store(1, RLX);
}

__global__ void lb_addr_fun(int *x, int *y)
{
  int t = threadIdx.x;
  atomic X(*x), Y0(y[0]);
  if (t == 0) {
    int a = X.load(RLX);
    load_store(y, a);
  } else {
    int r = Y0.load(RLX);
    X.store(r, REL);
  }
}
