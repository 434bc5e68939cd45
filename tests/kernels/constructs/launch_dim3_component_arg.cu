//pass
//
// Two ways a `dim3` component reaches a kernel as an argument. `width`
// is `block.x`, the launch's own block component: its value is chosen at
// run time, but it is blockDim.x, so blocks write disjoint runs of
// `out`. `cols` is `tiles.x`, a `dim3` the launch does not use: it has
// that dim3's value, n / 16, so a row of 16-wide tiles never spills into
// the next row of `img` (in the racy twin, n / 8 tiles per row do).
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
  runs<<<4, block>>>(out, block.x);
  dim3 tiles(n / 16, m);
  tileRows<<<dim3(n / 4, m), 16>>>(img, n, tiles.x);
}
