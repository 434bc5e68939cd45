//pass
//
// A tiled copy and transpose, as tiled kernels write them: each block of
// 32x8 threads moves a 32x32 tile, each thread four rows of it, at
// `index + i * width` with `index = x + width * y`. That index is the row
// `y + i` at column `x`, but written as a sum of two products of `width`;
// `check` reads it as that row (a factored row lemma) and, with the
// launch relation of the host code, proves both kernels race-free.
#define TILE 32
#define ROWS 8

__global__ void copy_tile(float *out, const float *in, int width)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  int index = x + width * y;
  for (int i = 0; i < TILE; i += ROWS) {
    out[index + i * width] = in[index + i * width];
  }
}

__global__ void transpose_tile(float *out, const float *in, int width)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  int index_out = y + width * x;
  for (int i = 0; i < TILE; i += ROWS) {
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
