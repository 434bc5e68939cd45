//xfail:data-race
//--blockDim=4 --gridDim=2
//
// The racy twin of loop_exit_at_top.cu: each tile is visited by two
// consecutive positions (its column is `(pos / 2) % 4`), so blocks 0 and 1
// write the same tile.
#define COLS 4
#define ROWS 1
#define TILE 4
__global__ void tiles(float *out)
{
  for (unsigned int pos = blockIdx.x;; pos += gridDim.x) {
    const unsigned int i = (pos * 2) / (4 * COLS);
    const unsigned int j = (pos / 2) % COLS;
    if (i >= ROWS)
      break;
    out[(i * COLS + j) * TILE + threadIdx.x] = i * 10.0f + j;
  }
}
