//xfail:data-race
//
// The twin of launch_caller_constant.cu whose only call of the launching
// function passes a block size of 32 for a tile of 16: the block is
// 32x32, twice the tile, and threads (16, 0) of block 0 and (0, 0) of
// block 1 write the same element of `out` (x = 16 * blockIdx.x +
// threadIdx.x).
#define TILE 16

__global__ void tileCopy(float *out, const float *in, int width)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  out[y * width + x] = in[y * width + x];
}

static void launchCopy(float *out, const float *in, int block_size, int width, int height)
{
  dim3 threads(block_size, block_size);
  dim3 grid(width / threads.x, height / threads.y);
  tileCopy<<<grid, threads>>>(out, in, width);
}

int main()
{
  float *out = 0, *in = 0;
  int size = 32;
  launchCopy(out, in, size, 320, 160);
  return 0;
}
