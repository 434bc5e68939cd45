//xfail:data-race
//
// The twin of launch_pitch.cu that divides the pitch in bytes by the size
// of a double on a float array: the stride in elements is half a row or
// so, and row y + 1 starts inside row y.
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
  fill<<<grid, block>>>(d, (int)(pitch / sizeof(double)), width, height);
  cudaFree(d);
  return 0;
}
