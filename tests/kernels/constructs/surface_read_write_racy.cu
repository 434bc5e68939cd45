//xfail:data-race
//--blockDim=[16,8] --gridDim=[4,4]
// The pixels are 4-byte floats but x steps by 2 bytes: the write of
// thread x covers bytes 2x..2x+3, half of which thread x+1 reads and
// writes.
__global__ void brighten(cudaSurfaceObject_t image, int width, int height)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float v;
    surf2Dread(&v, image, x * 2, y);
    surf2Dwrite(v * 0.5f, image, x * 2, y);
  }
}
