//pass
//--blockDim=2 --gridDim=1
// Twin of diff_barrier_in_different_iterations.cu: every thread passes the
// barrier in every iteration, so the arrivals of one iteration meet, and
// the barrier of iteration 0 orders the write of iteration 0 before the
// reads of iteration 1. Not divergent, no race.

__global__ void same_iteration(int *a) {
  for (unsigned i = 0; i < 2u; i++) {
    if (i == 1u) {
      a[2u + threadIdx.x] = a[1u - threadIdx.x];
    } else {
      a[threadIdx.x] = (int)threadIdx.x;
    }
    __syncthreads();
  }
}
