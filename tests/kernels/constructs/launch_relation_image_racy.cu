//xfail:data-race
//
// The racy twin of launch_relation_image.cu: the grid is rounded up, so the
// last block of a row runs past `width` and its threads write the first
// pixels of the next row, which other threads also write.
__global__ void brighten(float *img, int width, int height, float gain)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = img[y * width + x] * gain;
}

void run(float *d_img, int width, int height)
{
  dim3 block(16, 16);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  brighten<<<grid, block>>>(d_img, width, height, 1.5f);
}
