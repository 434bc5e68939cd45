//pass
//
// The launch's dimensions are built field by field, as cuda-samples' GEMM
// hosts build them (`dim3 grid, block; block.x = 64; block.y = 2;`), the
// grid from the block's own fields. Rows are 64 wide in shared memory, so
// the kernel is race-free for a block 64 threads wide, which is what the
// launch gives (reading a component, as printf does, changes nothing).
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
  block.x = ROW;
  block.y = 2;
  grid.x = 4096 / (block.x * block.y);
  printf("%u blocks of %u x %u threads\n", grid.x, block.x, block.y);
  rows<<<grid, block>>>(d, d + 4096);
  return 0;
}
