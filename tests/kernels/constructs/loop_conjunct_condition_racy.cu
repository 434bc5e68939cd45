//xfail:data-race
//--blockDim=64 --gridDim=16
//
// The racy twin of loop_conjunct_condition.cu: the second loop counts to
// 16, so thread 0 of block 0 also writes row 8, block 1's first row (and
// thread 8 writes it too).
__global__ void rows(const float *in, float *out, int n)
{
  __shared__ float slot[9];
  if (threadIdx.x < 8) {
    int k = threadIdx.x;
    for (int i = k + blockIdx.x * 8; k < 8 && i < n; k += 8, i += 8)
      slot[i % 9] = in[i];
  }
  __syncthreads();
  for (int k = threadIdx.x, i = k + blockIdx.x * 8; i < n && k < 16; k += 8, i += 8)
    out[i] = 2.0f * slot[i % 9];
}
