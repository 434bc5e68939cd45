//pass
//--blockDim=128 --gridDim=4
// Release/acquire message passing through a cuda::atomic<int,
// cuda::thread_scope_block> (one flag per block, in global memory). Thread 0
// computes a scale into shared memory and store(1, memory_order_release)s the
// flag; every other thread of the block spins with load(memory_order_acquire)
// and only then reads the scale. Block scope suffices: only the block's own
// threads touch its flag.
#include <cuda/atomic>

__global__ void broadcastScale(const float *in, float *out,
                               cuda::atomic<int, cuda::thread_scope_block> *flags)
{
  __shared__ float s_scale;
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  cuda::atomic<int, cuda::thread_scope_block> &ready = flags[blockIdx.x];

  if (tid == 0)
    ready.store(0, cuda::memory_order_relaxed);
  __syncthreads();

  if (tid == 0) {
    float m = 0.0f;
    for (unsigned i = 0; i < blockDim.x; ++i) {
      float a = fabsf(in[blockIdx.x * blockDim.x + i]);
      if (a > m)
        m = a;
    }
    s_scale = m > 0.0f ? 1.0f / m : 1.0f;
    ready.store(1, cuda::memory_order_release);
  } else {
    while (ready.load(cuda::memory_order_acquire) == 0) {
    }
  }

  out[gid] = in[gid] * s_scale;
}
