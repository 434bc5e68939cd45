//xfail:data-race
//--blockDim=256 --gridDim=8
// The tree reduction of shared_1d_reduction.cu without the barrier inside the
// loop: at stride 64 thread 0 reads sdata[64] while thread 64 may still be
// writing it at stride 128.
__global__ void blockSumNoSync(const float *in, float *partial)
{
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;

  sdata[tid] = in[gid];
  __syncthreads();

  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
  }
  __syncthreads();

  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}
