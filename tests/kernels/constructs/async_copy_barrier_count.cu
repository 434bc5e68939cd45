//xfail:assert
//--blockDim=[16,8] --gridDim=2
//
// The twin of async_copy_barrier.cu whose barrier counts only one row of
// the 16x8 block: its phase completes after 16 arrivals, so
// arrive_and_wait() does not order the block. warpsafe models
// arrive_and_wait() as __syncthreads() and asserts at init() that the
// count is the block's thread count: that assertion fails here.
#include <cuda/barrier>

__global__ void mirror(const float4 *in, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float4 tile[128];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t == 0) {
    init(&bar, blockDim.x);
  }
  __syncthreads();
  cuda::memcpy_async(&tile[t], &in[blockIdx.x * 128 + t], sizeof(float4), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * 128 + t] = tile[127 - t].y;
}
