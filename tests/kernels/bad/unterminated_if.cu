//xfail:front-end
//--blockDim=64 --gridDim=2
// Preprocessor error: #if BLOCK > 32 is never closed by an #endif.
#define BLOCK 64

#if BLOCK > 32
__global__ void wide(float *a)
{
  a[blockIdx.x * BLOCK + threadIdx.x] *= 2.0f;
}
