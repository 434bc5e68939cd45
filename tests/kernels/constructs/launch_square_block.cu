//pass
//
// `dim3 threads(side, side)` with a runtime `side`: the block is square,
// so at most 32x32 threads (the 1024-thread limit), and every thread's
// `tile[threadIdx.y][threadIdx.x]` is its own element. A 64x16 block would
// make row 0's threads 32..63 write row 1's elements, a race; the launch
// never makes one.
__global__ void transposeTile(const float *in, float *out)
{
  __shared__ float tile[32][32];
  unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * blockDim.x + x];
  __syncthreads();
  out[y * blockDim.x + x] = tile[x][y];
}

void run(const float *in, float *out, int side)
{
  dim3 threads(side, side);
  transposeTile<<<1, threads>>>(in, out);
}
