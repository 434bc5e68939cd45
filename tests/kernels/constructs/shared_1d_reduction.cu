//pass
//--blockDim=256 --gridDim=8
// Static 1-D __shared__ array and the tree reduction: a for loop halving the
// stride with s >>= 1 and a __syncthreads() after every level.
__global__ void blockSum(const float *in, float *partial)
{
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;

  sdata[tid] = in[gid];
  __syncthreads();

  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}
