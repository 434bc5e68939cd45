//xfail:data-race
//
// The twin of launch_power_of_two.cu whose helper halves its argument
// twice per iteration: it returns something other than the odd part, so
// `rest == 1` says nothing the relation can use, and a size of 3 (threads
// 1 and 2 both write slot 2) is allowed.
#include <assert.h>

__global__ void scanPairs(unsigned *d, unsigned size)
{
  __shared__ unsigned s[2 * 256];
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s[pos] = 0;
  pos += size;
  s[pos] = d[threadIdx.x];
  __syncthreads();
  d[threadIdx.x] = s[pos] + s[pos - size];
}

static unsigned notOddPart(unsigned L)
{
  while ((L & 1) == 0) {
    L >>= 1;
    L >>= 1;
  }
  return L;
}

void scan(unsigned *d, unsigned n)
{
  assert(notOddPart(n) == 1);
  assert(n >= 2 && n <= 256);
  scanPairs<<<1, 256>>>(d, n);
}
