//xfail:data-race
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 3 (last-iter, Figure 5): the last iteration's
// write of s[t+1] by thread t is not separated by a barrier from the write
// of s[t+1] by thread t+1 after the loop.
__global__ void lastIter(int N)
{
  __shared__ int s[128];
  unsigned tid = threadIdx.x;
  for (int x = 0; x < N; x++) {
    __syncthreads();
    if (tid < blockDim.x - 1)
      s[tid + 1] = x;
  }
  s[tid] = 0;
}
