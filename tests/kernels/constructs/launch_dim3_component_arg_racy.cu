//xfail:data-race
//
// The twin of launch_dim3_component_arg.cu with n / 8 tiles per row:
// x = n is below cols * 16, so row 0 writes `img[n]`, which row 1 writes
// at x = 0 (the first kernel is passed half the block's width, so its
// blocks overlap as well).
__global__ void runs(float *out, unsigned width)
{
  out[blockIdx.x * width + threadIdx.x] = 1.0f;
}

__global__ void tileRows(float *img, int n, int cols)
{
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y;
  if (x < cols * 16)
    img[y * n + x] = 1.0f;
}

void run(float *out, float *img, int n, int m)
{
  dim3 block;
  if (n > 4096)
    block.x = 512;
  else
    block.x = 128;
  runs<<<4, block>>>(out, block.x / 2);
  dim3 tiles(n / 8, m);
  tileRows<<<dim3(n / 4, m), 16>>>(img, n, tiles.x);
}
