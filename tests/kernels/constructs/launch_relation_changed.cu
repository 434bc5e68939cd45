//xfail:data-race
//
// The grid is computed from `n`, then `n` changes before the launch: the
// launch relation must not say `gridDim.x == n / 256` of the value passed,
// and the race (threads of the doubled range write both halves) stays.
__global__ void halves(int *a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 0;
  a[i + n] = 1;
}

void grow(int *n) { *n = *n / 2; }

int main(int argc, char **argv)
{
  int n = argc * 4096;
  int *d = 0;
  dim3 grid(n / 256);
  grow(&n);
  halves<<<grid, 256>>>(d, n);
  return 0;
}
