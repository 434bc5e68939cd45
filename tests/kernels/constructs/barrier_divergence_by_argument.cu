//xfail:barrier-divergence
//--blockDim=64 --gridDim=4
// Threads past `n` leave before the barrier: when `n` is not a multiple
// of the block size, the last block diverges. For `n` a multiple of it
// no block does, so the divergence is *possible* (it needs such an `n`),
// not provable.
__global__ void scale(float *x, int n)
{
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = x[i];
  __syncthreads();
  x[i] = 2.0f * s[(threadIdx.x + 1) % 64];
}
