//xfail:data-race
//--blockDim=128 --gridDim=4
// Every thread writes the block's sum when the optional output is given.
#include <stddef.h>
__global__ void scan(const int *in, int *out, int *sums, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in == out || i >= n)
    return;
  out[i] = in[i] + 1;
  if (sums != NULL)
    sums[blockIdx.x] = out[i];
}
