//pass
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 2 (first-iter, Figure 5), DRF version: the loop
// skips its write in the first iteration, so the write before the loop is
// separated from every write in the loop by a barrier.
__global__ void firstIter(int *out, int N)
{
  __shared__ int s[65];
  unsigned tid = threadIdx.x;
  s[tid + 1] = 1;
  for (int x = 0; x < N; x++) {
    if (x > 0)
      s[tid] = x;
    __syncthreads();
  }
  out[tid] = tid;
}
