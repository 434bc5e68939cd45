//pass
//
// The image size is a by-value struct parameter of the launching function,
// and the pitch is divided in place into elements before the launch
// (`stride /= sizeof(float)`). Both the grid and the pitch read
// `size.width`, which becomes one host variable: the grid's columns stay
// below the width, the width below the pitch, so rows never overlap.
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
  stride /= sizeof(float);
  report("allocated", size);
  dim3 block(8, 8);
  dim3 grid(size.width / 8, size.height / 8);
  clear<<<grid, block>>>(d, (int)stride);
  cudaFree(d);
}
