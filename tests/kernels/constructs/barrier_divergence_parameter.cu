//xfail:barrier-divergence
//--blockDim=64
// A barrier under `i < n`: the threads of a block disagree about it
// exactly when 0 < n < 64, so the report names `n` with a value that
// splits the block, beside the two threads.

__global__ void guardedBarrier(float *a, int n) {
  int i = threadIdx.x;
  if (i < n) {
    a[i] = 1.0f;
    __syncthreads();
  }
}
