//xfail:data-race
//
// The twin of launch_host_divided.cu whose host adds to its length after
// the assertion: the value divided at the launch is no longer the one
// asserted to be a power of two, so nothing keeps `size` from being 3
// (len 1536), where threads 1 and 2 both write slot 2.
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
  len += 512;
  scanPairs<<<1, 256>>>(d, len / 512);
}
