//xfail:data-race
//
// The twin of rows_aliased_width.cu whose host allows any multiple of 32
// for each side: with height = width / 2, `i * height` for i = 8 is four
// rows of `width`, so threads 4 rows apart in one tile write one element.
#include <assert.h>

__global__ void copyRows(float *out, const float *in, int width, int height)
{
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  int index = x + y * width;
  for (int i = 0; i < 32; i += 8)
    out[index + i * height] = in[index + i * width];
}

void run(float *out, const float *in, int width, int height)
{
  assert(width % 32 == 0 && height % 32 == 0);
  copyRows<<<dim3(width / 32, height / 32), dim3(32, 8)>>>(out, in, width, height);
}
