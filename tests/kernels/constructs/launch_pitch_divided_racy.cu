//xfail:data-race
//
// The twin of launch_pitch_divided.cu that divides the pitch in bytes by
// the size of a double on a float array: the stride in elements may be
// half the width, and row y + 1 starts inside row y.
#include <cuda_runtime.h>

struct Extent {
  int width;
  int height;
};

void report(const char *what, Extent size);

__global__ void clear(float *out, int stride)
{
  int x = blockIdx.x * 8 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  out[y * stride + x] = 0.0f;
}

void run(Extent size)
{
  float *d;
  size_t stride;
  cudaMallocPitch((void **)&d, &stride, size.width * sizeof(float), size.height);
  stride /= sizeof(double);
  report("allocated", size);
  dim3 block(8, 8);
  dim3 grid(size.width / 8, size.height / 8);
  clear<<<grid, block>>>(d, (int)stride);
  cudaFree(d);
}
