//xfail:data-race
//--blockDim=64 --gridDim=1
// A three-point stencil over a shared tile, with the barrier between
// filling the tile and reading it forgotten: every read of a neighbour
// races with the neighbour's write, and the halo writes of thread 0 race
// with the reads of the edge threads. `check` groups the races on `tile`.

__global__ void stencilNoSync(const float *in, float *out) {
  __shared__ float tile[2][33];
  int t = threadIdx.x;
  int row = t / 32;
  int col = t % 32;
  tile[row][col + 1] = in[t];
  if (col == 0) {
    tile[row][0] = 0.0f;
    tile[row][32] = 0.0f;
  }
  out[t] = tile[row][col] + tile[row][col + 1] + tile[row][col + 2];
}
