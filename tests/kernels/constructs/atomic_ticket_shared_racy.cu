//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
// Tickets from a __shared__ counter are distinct within a block only: each
// block has its own counter, so thread 0 of block 0 and thread 0 of block 1
// can both take ticket 0 (the counter's initial value) and write out[0].
__global__ void blockTickets(const int *in, int *out)
{
  __shared__ unsigned count;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned slot = atomicAdd(&count, 1u);
  out[slot] = in[gid];
}
