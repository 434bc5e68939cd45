//xfail:barrier-divergence
//--blockDim=2 --gridDim=1
// Found by the differential test (seed 5002806 of a stress run). Thread 1
// passes the barrier in iteration 0, thread 0 in iteration 1: the
// condition around it differs between the threads, so it is barrier
// divergence (check reports it, provable). explore matched barrier
// arrivals by statement and count only, so the two arrivals released each
// other and it called the kernel SAFE; a barrier event now names the
// iteration of each enclosing loop, and arrivals in different iterations
// do not meet. Twin: diff_barrier_in_same_iteration.cu.

__global__ void different_iterations(int *a) {
  for (unsigned i = 0; i < 2u; i++) {
    if (i + threadIdx.x == 1u) {
      __syncthreads();
    }
  }
}
