//pass
//--blockDim=64 --gridDim=2
//
// A block barrier used in two halves: `token = bar.arrive()` then
// `bar.wait(std::move(token))` with nothing in between that touches
// memory, which orders the block as arrive_and_wait() does. Each thread
// publishes a value, then reads its partner's.
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
  float scale = 0.5f;
  bar.wait(std::move(token));
  out[i] = v[threadIdx.x ^ 1] * scale;
}
