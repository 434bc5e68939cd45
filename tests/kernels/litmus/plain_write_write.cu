//xfail:data-race
//--blockDim=2 --gridDim=1
// Two threads store to one location with plain (non-atomic) writes.
__global__ void ww(int *a)
{
  a[0] = threadIdx.x;
}
