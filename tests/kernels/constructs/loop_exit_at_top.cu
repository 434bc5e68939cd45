//pass
//--blockDim=4 --gridDim=2
//
// A persistent-block loop that leaves at the top of its body (as the
// tensor-core GEMMs walk their tiles): `for (pos = blockIdx.x;; pos +=
// gridDim.x) { i = ...; if (i >= ROWS) break; ... }` is the counting loop
// `pos < 8`, so each block's tiles are its own.
#define COLS 4
#define ROWS 2
#define TILE 4
__global__ void tiles(float *out)
{
  __shared__ float stage[TILE];
  for (unsigned int pos = blockIdx.x;; pos += gridDim.x) {
    const unsigned int i = (pos * 2) / (2 * COLS);
    const unsigned int j = pos % COLS;
    if (i >= ROWS)
      break;
    stage[threadIdx.x] = i * 10.0f + j;
    __syncthreads();
    out[(i * COLS + j) * TILE + threadIdx.x] = stage[TILE - 1 - threadIdx.x];
    __syncthreads();
  }
}
