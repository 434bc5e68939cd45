//pass
//
// The host asserts that its length is a power of two and passes the
// kernel only a quotient of it, `len / 512`. The host's `len` is no kernel
// parameter, so the relation names it as a host variable
// (`scan::len`) with the assertion over it: the kernel's `size` is then
// a power of two too, and `pos = 2 * t - (t & (size - 1))` gives each
// thread its own pair of slots, size apart.
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

void scan(unsigned *d, unsigned len)
{
  assert((len & (len - 1)) == 0);
  assert(len >= 1024 && len <= 131072);
  scanPairs<<<1, 256>>>(d, len / 512);
}
