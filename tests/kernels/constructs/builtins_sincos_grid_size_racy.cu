//xfail:DATA_RACE
//--blockDim=64 --gridDim=4
//
// The __sincosf stores of builtins_sincos_grid_size.cu with the global
// index's lowest bit cleared: threads 2k and 2k + 1 write the same
// elements through the pointers.
__global__ void rotate(float *sines, float *cosines, const float *phase, unsigned n)
{
  unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) & ~1u;
  if (i < n)
    __sincosf(phase[i], &sines[i], &cosines[i]);
}
