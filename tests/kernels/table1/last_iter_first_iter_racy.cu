//xfail:data-race
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 4 (last-iter-first-iter, Figure 5): the last
// iteration of the nested loops writes s[t + 2N] after its last barrier; the
// first iteration of the next loop writes s[t' + 2N + 1] before its first
// barrier, so threads t+1 and t collide.
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
    s[tid + z + 1] = z;
    __syncthreads();
  }
}
