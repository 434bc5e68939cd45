//xfail:front-end
//--blockDim=32 --gridDim=1
// A static __shared__ array larger than any block's shared memory (nvcc
// rejects it too).
__global__ void k(float *a)
{
  __shared__ float s[1 << 20];
  s[threadIdx.x] = a[threadIdx.x];
}
