//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
// The compaction of atomic_ticket_shared.cu without the barrier after the
// reset: thread 0 can reset the counter after other threads took tickets,
// then take ticket 0 again, so two threads write buf[0].
__global__ void compactBlockUnsynced(const int *in, int *out)
{
  __shared__ unsigned count;
  __shared__ int buf[64];
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    count = 0;
  unsigned slot = atomicAdd(&count, 1u);
  buf[slot] = in[gid];
  __syncthreads();
  out[gid] = buf[threadIdx.x];
}
