//pass
//--blockDim=64 --gridDim=8
//
// A block-stride loop over a `short` counter: `ib += blockDim.x` computes
// in `int` and converts back to `short`, a conversion that wraps (defined
// behaviour, unlike signed overflow). The loop is exact where it cannot
// wrap: its bound, 96, is far below 32767 - blockDim.x.
#define WIDTH 96

__global__ void stage(const unsigned char *in, unsigned char *out)
{
  __shared__ unsigned char tile[WIDTH];
  short ib;
  for (ib = threadIdx.x; ib < WIDTH; ib += blockDim.x) {
    tile[ib] = in[blockIdx.x * WIDTH + ib];
  }
  __syncthreads();
  for (ib = threadIdx.x; ib < WIDTH; ib += blockDim.x) {
    out[blockIdx.x * WIDTH + ib] = tile[WIDTH - 1 - ib];
  }
}
