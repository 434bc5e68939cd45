//pass
//--blockDim=1 --gridDim=2
// The Xiao-Feng inter-block barrier: each block meets at __syncthreads, its
// thread 0 raises a release flag; block 0 waits (acquire) for all flags,
// meets, and releases every block through a second flag array; each block
// meets again. Plain data written before the barrier is read by the next
// block after it (seed 000, Table 1, XF-Barrier).
#include <cuda/atomic>

__global__ void xf_barrier(int *in, int *out, int *data, int *seen)
{
  unsigned bid = blockIdx.x, tid = threadIdx.x, nb = gridDim.x;
  data[bid * blockDim.x + tid] = bid + 1;
  // Arrive: the block's threads meet, then its thread 0 raises its flag.
  __syncthreads();
  if (tid == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> a(in[bid]);
    a.store(1, cuda::memory_order_release);
  }
  // Block 0 waits for every block's flag, meets, then releases them all.
  if (bid == 0) {
    for (unsigned b = tid; b < nb; b += blockDim.x) {
      cuda::atomic_ref<int, cuda::thread_scope_device> a(in[b]);
      while (a.load(cuda::memory_order_acquire) != 1) {
      }
    }
    __syncthreads();
    for (unsigned b = tid; b < nb; b += blockDim.x) {
      cuda::atomic_ref<int, cuda::thread_scope_device> o(out[b]);
      o.store(1, cuda::memory_order_release);
    }
  }
  // Leave: thread 0 waits for its release, then the block meets.
  if (tid == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> o(out[bid]);
    while (o.load(cuda::memory_order_acquire) != 1) {
    }
  }
  __syncthreads();
  seen[bid * blockDim.x + tid] = data[((bid + 1) % nb) * blockDim.x + tid];
}
