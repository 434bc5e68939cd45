//pass
//
// Each thread writes one element of each half of `a`; the halves do not meet
// because the host launches n / 256 blocks of 256 threads through a helper
// (inlined into the launch relation `gridDim.x == n / 256`), so every
// thread's `i` is below `n`.
static inline int blocksFor(int n, int threads) { return n / threads; }

__global__ void halves(int *a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 0;
  a[i + n] = 1;
}

int main(int argc, char **argv)
{
  int n = argc * 4096;
  int *d = 0;
  halves<<<blocksFor(n, 256), 256>>>(d, n);
  return 0;
}
