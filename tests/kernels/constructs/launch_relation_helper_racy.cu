//xfail:data-race
//
// The racy twin of launch_relation_helper.cu: the helper rounds up (the
// classic iDivUp), so when n is not a multiple of 256 the last threads'
// `i` reaches n and `a[i]` is the element another thread writes as
// `a[j + n]`.
static inline int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }

__global__ void halves(int *a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 0;
  a[i + n] = 1;
}

int main(int argc, char **argv)
{
  int n = argc * 100;
  int *d = 0;
  halves<<<iDivUp(n, 256), 256>>>(d, n);
  return 0;
}
