//xfail:data-race
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 5 (read-index, Figure 6): every thread stores 0 as
// its index, then writes a[idx[t]]: all threads write a[0].
__global__ void readIndex(int *a)
{
  __shared__ int idx[64];
  unsigned tid = threadIdx.x;
  idx[tid] = 0;
  __syncthreads();
  int x = idx[tid];
  a[x] = 1;
}
