//xfail:assert
//--blockDim=128 --gridDim=4
// The kernel keeps one bit per thread in a 64-bit mask and asserts that the
// block has at most 64 threads; launched with 128 threads per block the
// assertion fails for threads 64..127.
#include <assert.h>

__global__ void setMaskBits(const int *in, unsigned long long *masks)
{
  unsigned tid = threadIdx.x;
  assert(tid < 64);
  if (in[blockIdx.x * blockDim.x + tid] > 0)
    atomicOr(&masks[blockIdx.x], 1ull << tid);
}
