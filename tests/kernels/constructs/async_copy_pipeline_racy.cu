//xfail:data-race
//--blockDim=128 --gridDim=4
//
// The racy twin of async_copy_pipeline.cu: the pipeline wait covers only
// the thread's own copy, and without the __syncthreads() a thread reads
// its neighbour's element while the neighbour may still be copying it.
#include <cuda/pipeline>

__global__ void stage(const float4 *in, float *out) {
  __shared__ float4 tile[128];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x],
                     sizeof(float4), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  float4 next = tile[(threadIdx.x + 1) % 128];
  out[blockIdx.x * 128 + threadIdx.x] = next.x + next.w;
  pipe.consumer_release();
}
