//pass
//
// Two kernels launched through a function pointer, as benchmark drivers
// do: `kernel = &copyRows;` ... `kernel<<<grid, threads>>>(...)`. Each
// kernel takes the launch (blockDim=(32,8,1)) of every pointer launch that
// may call it, so the tile indices stay inside the 32x32 tile.
#define TILE 32
#define ROWS 8

__global__ void copyRows(float *out, const float *in, int width)
{
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * width + x] = tile[threadIdx.y + j][threadIdx.x];
}

__global__ void clearTile(float *out, const float *in, int width)
{
  __shared__ float tile[TILE][TILE];
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = 0.0f;
}

int main(int argc, char **argv)
{
  int size = 1024;
  float *d_out = 0, *d_in = 0;
  void (*kernel)(float *, const float *, int);
  dim3 grid(size / TILE, size / TILE), threads(TILE, ROWS);
  for (int k = 0; k < 2; k++) {
    if (k == 0)
      kernel = &copyRows;
    else
      kernel = clearTile;
    kernel<<<grid, threads>>>(d_out, d_in, size);
  }
  return 0;
}
