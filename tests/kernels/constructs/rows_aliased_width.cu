//pass
//
// Transpose's fine-grained copy: each thread writes the rows y + i of
// its tile at `index + i * height`, with `index = x + y * width`. The
// host asserts a square image, so `i * height` steps `i` rows of width
// `width`: the row lemma reads the index as row `y + i`, column `x`,
// through the launch's `width == height`. In the racy twin the image
// may be twice as wide as high, and row 4 of a tile meets row 0's
// `i = 8` (x + 4 * width in both).
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
  assert(width == height && width % 32 == 0);
  copyRows<<<dim3(width / 32, height / 32), dim3(32, 8)>>>(out, in, width, height);
}
