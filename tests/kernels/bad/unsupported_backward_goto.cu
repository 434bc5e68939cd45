//xfail:front-end
//--blockDim=64 --gridDim=2
// Unsupported construct: a backward goto (a loop written with a label), which
// has no structured equivalent in the IR.
__global__ void countdown(int *a)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 4;
again:
  a[idx] += k;
  k--;
  if (k > 0)
    goto again;
}
