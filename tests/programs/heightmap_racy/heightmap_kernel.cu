//xfail:data-race
//
// The twin of ../heightmap: main.cpp also calls the wrapper with a width
// of 250, which is no multiple of the block width: thread x = 250 of row
// 0 writes the pixel of thread x = 0 of row 1.
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
