//xfail:data-race
//--blockDim=64 --gridDim=8
//
// The racy twin of loops_short_counter.cu: the second loop reads the tile
// without the barrier, while other threads still fill it.
#define WIDTH 96

__global__ void stage(const unsigned char *in, unsigned char *out)
{
  __shared__ unsigned char tile[WIDTH];
  short ib;
  for (ib = threadIdx.x; ib < WIDTH; ib += blockDim.x) {
    tile[ib] = in[blockIdx.x * WIDTH + ib];
  }
  for (ib = threadIdx.x; ib < WIDTH; ib += blockDim.x) {
    out[blockIdx.x * WIDTH + ib] = tile[WIDTH - 1 - ib];
  }
}
