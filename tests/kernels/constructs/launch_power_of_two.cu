//pass
//
// The host checks that the scan's size is a power of two with a helper
// that strips its trailing zero bits (the odd part of a power of two is
// 1). With that, `pos = 2 * t - (t & (size - 1))` gives each thread its
// own pair of slots, size apart; without it (size 3: threads 1 and 2
// both write slot 2) threads of one block meet.
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

static unsigned oddPart(unsigned &log2L, unsigned L)
{
  if (!L) {
    log2L = 0;
    return 0;
  } else {
    for (log2L = 0; (L & 1) == 0; L >>= 1, log2L++)
      ;
    return L;
  }
}

void scan(unsigned *d, unsigned n)
{
  unsigned log2L;
  unsigned rest = oddPart(log2L, n);
  assert(rest == 1);
  assert(n >= 2 && n <= 256);
  scanPairs<<<1, 256>>>(d, n);
}
