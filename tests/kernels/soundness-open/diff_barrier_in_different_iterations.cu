//xfail:barrier-divergence
//--blockDim=2 --gridDim=1
// Found by the differential test (seed 5002806 of a stress run); NOT FIXED.
// Thread 1 passes the barrier in iteration 0, thread 0 in iteration 1:
// the condition around it differs between the threads, so it is barrier
// divergence (check reports it, provable). explore matches barrier
// arrivals by count and statement only, so the two arrivals (same
// statement, different iterations) release each other and it calls the
// kernel SAFE. Same root as diff_helper_barrier_two_call_sites.cu: a
// barrier event has no identity beyond its span (here it would need the
// iteration of the enclosing loop as well).

__global__ void different_iterations(int *a) {
  for (unsigned i = 0; i < 2u; i++) {
    if (i + threadIdx.x == 1u) {
      __syncthreads();
    }
  }
}
