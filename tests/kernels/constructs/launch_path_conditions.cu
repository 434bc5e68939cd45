//pass
//
// The host reaches the launch only for 2 <= n <= 1024 (an early return and
// an enclosing `if`), and picks the block size in a `switch`. With those
// conditions the doubling loop over the runtime `n` cannot wrap around, so
// its barriers align; without them (n above 2^31) `size <<= 1` could wrap
// to 0 and loop forever, and the kernel would be UNKNOWN.
__global__ void passes(unsigned *d, unsigned n)
{
  __shared__ unsigned s[1024];
  s[threadIdx.x] = d[blockIdx.x * blockDim.x + threadIdx.x];
  for (unsigned size = 2; size < n; size <<= 1) {
    __syncthreads();
    unsigned v = s[threadIdx.x ^ 1];
    __syncthreads();
    s[threadIdx.x] = v + size;
  }
  __syncthreads();
  d[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}

void run(unsigned *d, unsigned n, unsigned blocks, int threads)
{
  if (n < 2)
    return;
  if (n <= 1024) {
    switch (threads) {
    case 512:
      passes<<<blocks, threads>>>(d, n);
      break;
    case 1024:
      passes<<<blocks, threads>>>(d, n);
      break;
    }
  }
}
