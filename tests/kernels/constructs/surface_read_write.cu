//pass
//--blockDim=[16,8] --gridDim=[4,4]
// Each thread brightens its own pixel of a 2-D `uchar4` surface: x counts
// bytes, so pixel x starts at byte 4*x; reads and writes of one thread
// cover the same four bytes, no other thread's.
__global__ void brighten(cudaSurfaceObject_t image, int width, int height)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 p = surf2Dread<uchar4>(image, x * 4, y);
    p.x = p.x / 2 + 128;
    p.y = p.y / 2 + 128;
    surf2Dwrite(p, image, x * 4, y);
  }
}
