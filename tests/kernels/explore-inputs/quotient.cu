//xfail:fault
//--blockDim=2 --gridDim=1
// Each thread divides `total` by its divisor: a zero divisor (the default
// contents, or `--array d=[3,0]`) is a division by zero in that thread.
__global__ void quotient(const int *d, int *q, int total)
{
  q[threadIdx.x] = total / d[threadIdx.x];
}
