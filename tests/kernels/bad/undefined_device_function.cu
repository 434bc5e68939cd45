//xfail:front-end
//--blockDim=64 --gridDim=2
// The kernel passes a pointer to a __device__ function that is declared but
// never defined: the function may write through it, so the kernel cannot be
// modelled.
__device__ void scatter(float *out, int i);

__global__ void gather(float *out)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  scatter(out, idx);
}
