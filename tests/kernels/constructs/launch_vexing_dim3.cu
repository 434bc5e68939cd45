//pass
//
// `dim3 threads(TILE, TILE);` with identifiers only is, to tree-sitter, the
// declaration of a function `threads` taking two parameters of types named
// `TILE`. It is a 16x16 block: each thread owns one element of the tile.
const int TILE = 16;

__global__ void tile(const float *in, float *out)
{
  __shared__ float s[TILE][TILE];
  s[threadIdx.y][threadIdx.x] = in[blockIdx.x * TILE * TILE + threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * TILE * TILE + threadIdx.y * TILE + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

int main()
{
  float *d = 0;
  dim3 threads(TILE, TILE);
  dim3 grid(64);
  tile<<<grid, threads>>>(d, d + 64 * TILE * TILE);
  return 0;
}
