//xfail:data-race
//--blockDim=64 --gridDim=2
//
// The racy twin of async_barrier_split.cu: after the wait each thread
// overwrites its own value while its partner may still be reading it (a
// second phase of the barrier would be needed).
#include <cuda/barrier>
#include <utility>

__global__ void swap_pairs(const float *in, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float v[64];
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[threadIdx.x] = in[i] * 2.0f;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  float partner = v[threadIdx.x ^ 1];
  v[threadIdx.x] = partner;
  out[i] = partner;
}
