//pass
//--blockDim=64 --gridDim=4
// #include "helper.cuh" of a header in this folder (included twice; the include
// guard makes the second one empty), using its macro and __device__ helpers.
#include "helper.cuh"
#include "helper.cuh"

__global__ void invert(const float *in, float *out)
{
  int gid = globalIndex();
  float v = in[gid];
  out[gid] = v > HELPER_EPS ? safeInverse(v) : 0.0f;
}
