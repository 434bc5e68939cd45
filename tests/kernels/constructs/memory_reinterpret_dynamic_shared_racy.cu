//xfail:data-race
//--blockDim=64 --gridDim=2
// The carved buffer with the `int` array starting halfway through the
// `float` array: thread t writes as an int the bytes that thread t + 32
// writes as a float.
__global__ void carve(const float *in, float *out)
{
  extern __shared__ unsigned char buffer[];
  extern __shared__ float asFloats[];
  float *values = (float *)buffer;
  int *counts = (int *)&buffer[32 * sizeof(float)];
  values[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  counts[threadIdx.x] = 1;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] =
      asFloats[63 - threadIdx.x] + counts[(threadIdx.x + 1) % 64];
}
