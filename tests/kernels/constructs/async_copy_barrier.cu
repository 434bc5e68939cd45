//pass
//--blockDim=[16,8] --gridDim=2
//
// Copies completed through a block-scoped cuda::barrier: thread 0
// initialises it with the block's thread count, every thread issues its
// copy on the barrier and arrive_and_wait() then orders the block, so a
// thread may read any element of the tile.
#include <cuda/barrier>

__global__ void mirror(const float4 *in, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float4 tile[128];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t == 0) {
    init(&bar, blockDim.x * blockDim.y);
  }
  __syncthreads();
  cuda::memcpy_async(&tile[t], &in[blockIdx.x * 128 + t], sizeof(float4), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * 128 + t] = tile[127 - t].y;
}
