//pass
//--blockDim=64 --gridDim=2
// A forward goto to a cleanup label: lowered as a break out of a block.
__global__ void clampPositive(float *a, int n)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    goto done;
  if (a[idx] < 0.0f)
    a[idx] = 0.0f;
done:
  return;
}
