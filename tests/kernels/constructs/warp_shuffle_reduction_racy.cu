//xfail:DATA_RACE
//--blockDim=256 --gridDim=4
//
// warp_shuffle_reduction.cu without the block barrier between the warps'
// writes of their shared slots and warp 0's reads of them. A shuffle orders
// no memory, so the warp reduction after the writes does not help.
__device__ float warpSum(unsigned mask, float v)
{
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(mask, v, offset);
  return v;
}

__global__ void blockReduce(const float *in, float *out, int n)
{
  __shared__ float partial[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warpSum(0xffffffff, v);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  if (threadIdx.x < 32) {
    v = threadIdx.x < 8 ? partial[threadIdx.x] : 0.0f;
    v = warpSum(0xffffffff, v);
    if (threadIdx.x == 0)
      out[blockIdx.x] = v;
  }
}
