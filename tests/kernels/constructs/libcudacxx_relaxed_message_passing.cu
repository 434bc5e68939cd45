//xfail:data-race
//--blockDim=128 --gridDim=4
// The hand-off of libcudacxx_block_atomic_message_passing.cu with both flag
// operations memory_order_relaxed: the flag accesses are atomic, but nothing
// orders thread 0's plain write of s_scale before the other threads' plain
// reads of it, so the accesses to s_scale race.
#include <cuda/atomic>

__global__ void broadcastScaleRelaxed(const float *in, float *out,
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
    float v = fabsf(in[blockIdx.x * blockDim.x]);
    s_scale = v > 0.0f ? 1.0f / v : 1.0f;
    ready.store(1, cuda::memory_order_relaxed);
  } else {
    while (ready.load(cuda::memory_order_relaxed) == 0) {
    }
  }

  out[gid] = in[gid] * s_scale;
}
