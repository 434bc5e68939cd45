//xfail:data-race
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 2 (first-iter, Figure 5): thread t writes s[t+1]
// before the loop and thread t+1 writes s[t+1] in the loop's first
// iteration, before any barrier.
__global__ void firstIter(int *out, int N)
{
  __shared__ int s[65];
  unsigned tid = threadIdx.x;
  s[tid + 1] = 1;
  for (int x = 0; x < N; x++) {
    s[tid] = x;
    __syncthreads();
  }
  out[tid] = s[tid];
}
