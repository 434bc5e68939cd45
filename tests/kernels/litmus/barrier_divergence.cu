//xfail:barrier-divergence
//--blockDim=2 --gridDim=1
// Only thread 0 reaches the barrier: the block never completes it.
__global__ void diverge(int *a)
{
  if (threadIdx.x == 0)
    __syncthreads();
  a[threadIdx.x] = 1;
}
