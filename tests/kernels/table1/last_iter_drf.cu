//pass
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 3 (last-iter, Figure 5), DRF version: after the
// loop each thread writes s[t + blockDim.x], which no write in the loop
// touches.
__global__ void lastIter(int N)
{
  __shared__ int s[128];
  unsigned tid = threadIdx.x;
  for (int x = 0; x < N; x++) {
    __syncthreads();
    if (tid < blockDim.x - 1)
      s[tid + 1] = x;
  }
  s[tid + blockDim.x] = 0;
}
