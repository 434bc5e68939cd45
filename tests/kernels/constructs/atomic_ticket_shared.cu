//pass
//--blockDim=64 --gridDim=4
// Block-level compaction: thread 0 resets a __shared__ counter, a barrier
// orders the reset before every ticket, and each thread with a positive
// value takes a slot of the block's buffer with atomicAdd. The tickets of a
// block differ, so no two threads write one slot of buf; after the second
// barrier each thread copies its slot of the block's buffer out.
__global__ void compactBlock(const int *in, int *out)
{
  __shared__ unsigned count;
  __shared__ int buf[64];
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  int v = in[gid];
  if (v > 0) {
    unsigned slot = atomicAdd(&count, 1u);
    buf[slot] = v;
  }
  __syncthreads();
  out[gid] = threadIdx.x < count ? buf[threadIdx.x] : 0;
}
