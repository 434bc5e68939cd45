//xfail:barrier-divergence
//--blockDim=64 --gridDim=4
//
// A counting loop with a barrier whose second conjunct depends on the
// thread: thread 0 leaves at once while the others reach the barrier.
// Read as the counting loop of `k < 4` with an exit at the top of its body,
// it is a loop with barriers that may stop early, which the block must
// leave together: it does not.
__global__ void steps(float *out)
{
  __shared__ float s[64];
  for (int k = 0; k < 4 && k < threadIdx.x; k++) {
    s[threadIdx.x] = k;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}
