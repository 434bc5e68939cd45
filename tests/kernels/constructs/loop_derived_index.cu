//pass
//--blockDim=4 --gridDim=1
//
// Variables stepped along with a counting loop (`idx += 4` once per
// iteration, a pointer `row += 4`) keep exact values: iteration `k` writes
// stage[threadIdx.x + 4k] and reads row k, so no two threads meet.
#define N 4
__global__ void stage_rows(const float *in, float *out)
{
  __shared__ float stage[N * N];
  unsigned int idx = threadIdx.x;
  const float *row = in;
  for (int k = 0; k < N; k++) {
    stage[idx] = row[threadIdx.x];
    idx += N;
    row += N;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < N; k++)
    sum += stage[k * N + (N - 1 - threadIdx.x)];
  out[threadIdx.x] = sum;
}
