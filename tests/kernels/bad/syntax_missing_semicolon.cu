//xfail:front-end
//--blockDim=64 --gridDim=2
// Syntax error: the declaration of idx has no terminating semicolon.
__global__ void scale(float *a, float s, int n)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x
  if (idx < n)
    a[idx] *= s;
}
