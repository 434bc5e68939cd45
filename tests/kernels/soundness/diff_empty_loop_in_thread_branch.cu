//pass
//--blockDim=2 --gridDim=1
// Found by the differential test (crates/cli/tests/differential.rs).
// The barrier is in a loop that runs zero times (blockDim.x - 2 == 0),
// under a condition on the thread: no thread reaches it. check took the
// condition of reaching the loop for the condition of reaching its
// barrier and reported a *provable* divergence (it now also asks that
// the loop be entered: lo < hi).

__global__ void empty_loop(int *a) {
  if (threadIdx.x != 1u) {
    for (unsigned i = 0; i < blockDim.x - 2u; i++) {
      __syncthreads();
    }
    a[threadIdx.x] = 1;
  }
}
