//xfail:data-race
//
// The racy twin of launch_dim3_fields.cu: the block is built 128 threads
// wide, so thread (64, 0) and thread (0, 1) of a block write the same
// element of the 64-wide rows.
#define ROW 64

__global__ void rows(const float *in, float *out)
{
  __shared__ float s[2 * ROW];
  unsigned t = threadIdx.y * ROW + threadIdx.x;
  s[t] = in[blockIdx.x * 2 * ROW + t];
  __syncthreads();
  out[blockIdx.x * 2 * ROW + t] = s[2 * ROW - 1 - t];
}

int main()
{
  float *d = 0;
  dim3 grid, block;
  block.x = 2 * ROW;
  block.y = 2;
  grid.x = 4096 / (block.x * block.y);
  printf("%u blocks of %u x %u threads\n", grid.x, block.x, block.y);
  rows<<<grid, block>>>(d, d + 4096);
  return 0;
}
