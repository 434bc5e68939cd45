//xfail:front-end
//--blockDim=64 --gridDim=2
// Unsupported construct: device-side dynamic allocation with new[] / delete[].
__global__ void scratchSum(const float *in, float *out)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float *scratch = new float[4];
  for (int k = 0; k < 4; ++k)
    scratch[k] = in[4 * idx + k];
  out[idx] = scratch[0] + scratch[1] + scratch[2] + scratch[3];
  delete[] scratch;
}
