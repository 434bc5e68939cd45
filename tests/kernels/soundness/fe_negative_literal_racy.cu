//xfail:data-race
//--blockDim=4 --gridDim=1
// `-3000000000` is a negative `long`: every thread takes the first branch
// and writes x[0]. Truncated to 32 bits it would be positive.
__global__ void k(int *x) {
  long long b = -3000000000;
  if (b < 0)
    x[0] = threadIdx.x;
  else
    x[threadIdx.x] = 1;
}
