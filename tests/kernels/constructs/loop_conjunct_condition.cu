//pass
//--blockDim=64 --gridDim=16
//
// Counting loops whose condition is a conjunction (jacobiCudaGraphs' row
// loops): one conjunct counts (`k < 8`, in the second loop the second
// conjunct), the other (`i < n`) may end the loop early, and `i` steps
// with `k`. Each of the first 8 threads of a block runs one iteration, on
// row `threadIdx.x + 8 * blockIdx.x`: the blocks' rows are disjoint, and 8
// consecutive rows fall in distinct slots modulo 9.
__global__ void rows(const float *in, float *out, int n)
{
  __shared__ float slot[9];
  if (threadIdx.x < 8) {
    int k = threadIdx.x;
    for (int i = k + blockIdx.x * 8; k < 8 && i < n; k += 8, i += 8)
      slot[i % 9] = in[i];
  }
  __syncthreads();
  for (int k = threadIdx.x, i = k + blockIdx.x * 8; i < n && k < 8; k += 8, i += 8)
    out[i] = 2.0f * slot[i % 9];
}
