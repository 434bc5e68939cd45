//xfail:front-end
//--blockDim=64 --gridDim=2
// Preprocessor error: an #endif with no matching #if.
#define SCALE 2.0f

__global__ void scaleAll(float *a)
{
  a[blockIdx.x * blockDim.x + threadIdx.x] *= SCALE;
}
#endif
