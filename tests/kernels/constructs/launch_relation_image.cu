//pass
//
// A 2-D image kernel without a bounds check, as image samples write it: the
// host code launches exactly width/16 x height/16 blocks of 16x16 threads
// and passes the same `width`, so no thread reaches past the end of a row.
// `check` takes `gridDim.x == width / 16` from the launch (a launch
// relation) and proves the kernel race-free.
__global__ void brighten(float *img, int width, int height, float gain)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = img[y * width + x] * gain;
}

void run(float *d_img, int width, int height)
{
  dim3 block(16, 16);
  dim3 grid(width / block.x, height / block.y);
  brighten<<<grid, block>>>(d_img, width, height, 1.5f);
}
