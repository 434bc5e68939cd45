//pass
//--blockDim=2 --gridDim=1
// Found by the differential test (crates/cli/tests/differential.rs).
// A block-stride loop: thread 0 runs i = 0, thread 1 runs i = 1, one
// iteration each, so both pass the barrier once: no divergence. The
// loop's bounds differ between the threads, and check called that a
// *provable* barrier divergence (it is now a possible one: it proves
// divergence only when one thread enters the loop and the other does not).

__global__ void same_trips(int *a) {
  for (unsigned i = threadIdx.x; i < 2u; i += blockDim.x) {
    a[i] = 1;
    __syncthreads();
  }
}
