//pass
//--blockDim=128 --gridDim=4
// Optional outputs tested against NULL and an in-place check between two
// parameters: distinct pointer parameters are taken to be non-null and
// not to alias (README), so `sums != NULL` holds, `in == out` does not,
// and only the last thread of each block writes its block's sum.
#include <stddef.h>
__global__ void scan(const int *in, int *out, int *sums, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in == out || i >= n)
    return;
  out[i] = in[i] + 1;
  if (sums != NULL && threadIdx.x == blockDim.x - 1)
    sums[blockIdx.x] = out[i];
  if (nullptr == sums)
    sums[0] = 0;
}
