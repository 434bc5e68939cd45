//pass
//
// The launch's block size is a parameter of the host function around it,
// and the file's only call of that function passes a local that still
// holds 32: the block is 32x32, the tile's size, and the grid covers the
// matrix's width in tiles. Without the caller's value the block could be
// larger than the tile, and threads of one block would meet in `out`.
#define TILE 32

__global__ void tileCopy(float *out, const float *in, int width)
{
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  out[y * width + x] = tile[threadIdx.y][threadIdx.x];
}

static void launchCopy(float *out, const float *in, int block_size, int width, int height)
{
  dim3 threads(block_size, block_size);
  dim3 grid(width / threads.x, height / threads.y);
  tileCopy<<<grid, threads>>>(out, in, width);
}

static void runTest(float *out, const float *in, int width, int height, int size)
{
  launchCopy(out, in, size, width, height);
}

int main()
{
  float *out = 0, *in = 0;
  int block_size = 32;
  int width = 10 * block_size, height = 5 * block_size;
  runTest(out, in, width, height, block_size);
  return 0;
}
