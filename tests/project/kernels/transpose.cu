// A tiled transpose through shared memory, with the barrier between
// writing and reading the tile: race-free for 16x16 blocks (the project
// file sets that launch).
#define TILE 16

__global__ void transposeTile(const float *in, float *out, int width) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  out[ty * width + tx] = tile[threadIdx.x][threadIdx.y];
}
