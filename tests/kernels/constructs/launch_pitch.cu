//pass
//
// A 2-D array allocated with cudaMallocPitch: rows are `pitch` bytes
// apart, and a pitch is at least the row's width in bytes, so the rows
// of `out[y * stride + x]` (x below the width) never overlap. The relation
// names the pitch as a host variable with `pitch >= width * 4` and
// `pitch < 2^31` (the allocation succeeded; a row is less than 2 GiB).
#include <cuda_runtime.h>

__global__ void fill(float *out, int stride, int width, int height)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * stride + x] = 1.0f;
}

int main()
{
  const int width = 1000, height = 600;
  float *d;
  size_t pitch;
  cudaMallocPitch((void **)&d, &pitch, width * sizeof(float), height);
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  fill<<<grid, block>>>(d, (int)(pitch / sizeof(float)), width, height);
  cudaFree(d);
  return 0;
}
