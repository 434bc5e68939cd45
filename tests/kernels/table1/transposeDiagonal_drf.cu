//pass
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 1, DRF version: the racy kernel with a barrier after
// the reads, so round r's reads finish before round r+1's writes start.
__global__ void transposeDiagonal(float *out, int N, int M)
{
  __shared__ float tile[4096];
  unsigned tid = threadIdx.x;
  for (int r = 0; r < N; r++) {
    for (int i = 0; i < M; i++)
      tile[tid] = (float)(r + i);
    __syncthreads();
    float acc = 0.0f;
    for (int j = 0; j < M; j++)
      acc += tile[tid + j];
    out[tid] += acc;
    __syncthreads();
  }
}
