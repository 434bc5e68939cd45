//pass
//
// A kernel launched from an `extern "C"` wrapper that only main.cu, the
// program's other file, calls: with `width` 256 from main.cu's calls,
// the 8x8 blocks of the grid cover the 256x256 map exactly and every
// thread writes its own pixel. The twin program (../heightmap_racy)
// also calls it with a width of 250, for which the last block of each
// row spills into the next row.
__global__ void updateHeightmap(float *heightMap, const float *ht, unsigned int width)
{
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  heightMap[y * width + x] = ht[y * width + x];
}

static unsigned int divUp(unsigned int a, unsigned int b)
{
  return (a + b - 1) / b;
}

extern "C" void runUpdateHeightmap(float *heightMap, const float *ht, unsigned int width, unsigned int height)
{
  dim3 block(8, 8, 1);
  dim3 grid(divUp(width, block.x), divUp(height, block.y), 1);
  updateHeightmap<<<grid, block>>>(heightMap, ht, width);
}
