//xfail:data-race
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 1 (Listing 2.3's protocol): in each round r every
// thread writes its tile slot, waits, then reads the slots of its
// neighbours. Nothing separates round r's reads from round r+1's writes:
// thread 0 reads tile[1] while thread 1 already writes it for the next round.
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
  }
}
