//pass
//--blockDim=64 --gridDim=2
// One dynamic shared buffer of bytes carved into a `float` array and an
// `int` array after it, and declared a second time as `float` (every
// `extern __shared__` array starts at the same byte). Each thread writes
// its own slots of both arrays, then reads others' after the barrier.
__global__ void carve(const float *in, float *out)
{
  extern __shared__ unsigned char buffer[];
  extern __shared__ float asFloats[];
  float *values = (float *)buffer;
  int *counts = (int *)&buffer[64 * sizeof(float)];
  values[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  counts[threadIdx.x] = 1;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] =
      asFloats[63 - threadIdx.x] + counts[(threadIdx.x + 1) % 64];
}
