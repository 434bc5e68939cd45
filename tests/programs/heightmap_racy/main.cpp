// The host side of heightmap_kernel.cu: one of its calls passes a width
// that is no multiple of the block width.
extern "C" void runUpdateHeightmap(float *heightMap, const float *ht, unsigned int width, unsigned int height);

const unsigned int meshSize = 256;

void frame(float *h, const float *ht)
{
  runUpdateHeightmap(h, ht, meshSize, meshSize);
}

void smallFrame(float *h, const float *ht)
{
  runUpdateHeightmap(h, ht, 250, 250);
}
