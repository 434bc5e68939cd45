//pass
//--blockDim=256 --gridDim=1
//
// A tiled loop `a <= last` over parameters (matrixMul's shape). With a
// signed `a`, `last == INT_MAX` would make the loop end only by overflowing
// `a`, which C++ leaves undefined: the loop's range is exact without
// asking `last < INT_MAX`, and its barriers align.
__global__ void tiles(float *out, int first, int last)
{
  __shared__ float s[256];
  for (int a = first; a <= last; a += 256) {
    s[threadIdx.x] = out[a + threadIdx.x];
    __syncthreads();
    out[a + threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
  }
}
