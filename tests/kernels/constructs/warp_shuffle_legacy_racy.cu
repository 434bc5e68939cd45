//xfail:DATA_RACE
//--blockDim=128 --gridDim=8
//
// warp_shuffle_legacy.cu with lane 0 of every warp writing `partial[0]`:
// the four warps' writes race (a mask-less shuffle orders no memory either).
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
  if (threadIdx.x % warpSize == 0)
    partial[0] = sum;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}
