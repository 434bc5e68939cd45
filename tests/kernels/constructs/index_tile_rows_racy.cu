//xfail:data-race
//
// The racy twin of index_tile_rows.cu: each thread moves rows `i` in steps
// of 4 while the block has 8 rows of threads, so thread row 4 writes in its
// first step what thread row 0 writes in its second.
#define TILE 32
#define ROWS 8

__global__ void copy_tile(float *out, const float *in, int width)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  int index = x + width * y;
  for (int i = 0; i < TILE; i += 4) {
    out[index + i * width] = in[index + i * width];
  }
}

__global__ void transpose_tile(float *out, const float *in, int width)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  int index_out = y + width * x;
  for (int i = 0; i < TILE; i += 4) {
    out[index_out + i] = in[(y + i) * width + x];
  }
}

void run(float *d_out, const float *d_in, int width)
{
  if (width % TILE != 0) {
    return;
  }
  dim3 grid(width / TILE, width / TILE), block(TILE, ROWS);
  copy_tile<<<grid, block>>>(d_out, d_in, width);
  transpose_tile<<<grid, block>>>(d_out, d_in, width);
}
