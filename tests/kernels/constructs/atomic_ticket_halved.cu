//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
// Distinct tickets, but two of them share a slot: tickets 2k and 2k+1 both
// write out[k].
__global__ void compactPairs(const int *in, int *out, unsigned *count)
{
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned slot = atomicAdd(count, 1u);
  out[slot / 2] = in[gid];
}
