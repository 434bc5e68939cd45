//xfail:barrier-divergence
//--blockDim=64 --gridDim=2
// A barrier inside if (threadIdx.x < 16): only the first 16 threads of each
// 64-thread block reach __syncthreads().
__global__ void foldFirstSixteen(float *data)
{
  __shared__ float s[64];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  if (threadIdx.x < 16) {
    s[tid] = data[gid];
    __syncthreads();
    data[gid] = s[tid] + s[15 - tid];
  }
}
