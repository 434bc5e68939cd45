//xfail:front-end
//--blockDim=128 --gridDim=1
// A pipeline with shared state (block-scoped, with producer and consumer
// threads that synchronise through it) is not modelled: the kernel is left
// out with a message naming the construct. Per-thread pipelines and block
// barriers are modelled (see constructs/async_copy_*.cu).
#include <cuda/pipeline>
#include <cooperative_groups.h>

__global__ void stage(float *out, const float *in)
{
  __shared__ float tile[128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &state);
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = tile[127 - threadIdx.x];
  pipe.consumer_release();
}
