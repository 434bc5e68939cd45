//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
// The ticket counter of atomic_ticket.cu, but the counter is also
// decremented: once a thread gives its ticket back, the next thread takes
// the same one, so two threads can write one slot.
__global__ void compactRecycled(const int *in, int *out, unsigned *count)
{
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned slot = atomicAdd(count, 1u);
  out[slot] = in[gid];
  atomicSub(count, 1u);
}
