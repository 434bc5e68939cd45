//xfail:front-end
//--blockDim=64 --gridDim=2
// Unsupported: a recursive __device__ function (valid CUDA on sm_20+, but it
// cannot be inlined into the kernel).
__device__ int fib(int n)
{
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

__global__ void fibonacci(int *out)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = fib(idx % 16);
}
