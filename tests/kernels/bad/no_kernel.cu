//xfail:front-end
//--blockDim=64 --gridDim=2
// The file defines __device__ and host functions but no __global__ kernel.
__device__ float lerp(float a, float b, float t)
{
  return a + t * (b - a);
}

float hostLerp(float a, float b, float t)
{
  return a + t * (b - a);
}
