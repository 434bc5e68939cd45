//xfail:front-end
//--blockDim=64 --gridDim=2
// Syntax error: the body of the for loop opens a brace that is never closed, so
// the kernel body runs off the end of the file.
__global__ void prefixAdd(float *a, int n)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    a[idx] += 1.0f;
}
