//pass
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 4 (last-iter-first-iter, Figure 5), DRF version:
// the next loop first writes s[t + 2N], the slot the same thread wrote last,
// so no two threads meet.
__global__ void lastIterFirstIter(int N)
{
  __shared__ int s[4096];
  unsigned tid = threadIdx.x;
  for (int x = 1; x < N + 1; x++) {
    for (int y = 1; y < x + 1; y++) {
      __syncthreads();
      s[tid + x + y] = y;
    }
  }
  for (int z = N * 2; z < N * 3; z++) {
    s[tid + z] = z;
    __syncthreads();
  }
}
