//xfail:front-end
//--blockDim=64 --gridDim=2
// Preprocessor error: the quoted include names a header that does not exist.
#include "nothere.h"

__global__ void copy(const float *in, float *out)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = in[idx];
}
