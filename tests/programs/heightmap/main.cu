// The host side of heightmap_kernel.cu, with a kernel of its own: it
// declares the wrapper and calls it with the map's constant size.
extern "C" void runUpdateHeightmap(float *heightMap, const float *ht, unsigned int width, unsigned int height);

const unsigned int meshSize = 256;

__global__ void clearMap(float *h)
{
  h[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

void frame(float *h, const float *ht)
{
  runUpdateHeightmap(h, ht, meshSize, meshSize);
}

void firstFrame(float *h, const float *ht)
{
  clearMap<<<meshSize, meshSize>>>(h);
  runUpdateHeightmap(h, ht, meshSize, meshSize);
}
