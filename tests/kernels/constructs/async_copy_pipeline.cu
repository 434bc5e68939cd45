//pass
//--blockDim=128 --gridDim=4
//
// libcu++ asynchronous copies through a per-thread pipeline: each thread
// stages one float4 of its block's slice in shared memory, waits for its
// own copy, and the block synchronises before a thread reads its
// neighbour's element. warpsafe models a copy as done when it is issued
// (a warning says so); the wait orders only the thread's own copies, the
// barrier orders the block.
#include <cuda/pipeline>

__global__ void stage(const float4 *in, float *out) {
  __shared__ float4 tile[128];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const auto one = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x],
                     one, pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  float4 next = tile[(threadIdx.x + 1) % 128];
  out[blockIdx.x * 128 + threadIdx.x] = next.x + next.w;
  pipe.consumer_release();
}
