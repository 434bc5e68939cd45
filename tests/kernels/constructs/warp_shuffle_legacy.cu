//pass
//--blockDim=128 --gridDim=8
//
// A warp reduction written for CUDA before 9: `__shfl_down` without a mask
// (and `__any` in a guard), read as the `_sync` forms over the whole warp.
// Lane 0 of each warp writes its own shared slot; after the block barrier
// thread 0 adds the four slots. No index depends on an exchanged value.
__device__ int warpReduceSum(int val)
{
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

__global__ void deviceReduce(const int *in, int *out, int n)
{
  __shared__ int partial[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = i < n ? in[i] : 0;
  sum = warpReduceSum(sum);
  if (__any(sum != 0) && threadIdx.x % warpSize == 0)
    partial[threadIdx.x / warpSize] = sum;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0] + partial[1] + partial[2] + partial[3];
}
