//pass
//--blockDim=2 --gridDim=1
// Found by the differential test (crates/cli/tests/differential.rs).
// The barrier sits under a condition on the thread, but also under one
// that no block of this grid meets (blockIdx.x == 3 with one block): no
// thread reaches it. check found the threads disagreeing about the outer
// condition, found no barrier reached by one thread and not the other,
// and still reported the first barrier as a *provable* divergence with
// the condition's witness (now a possible one).

__global__ void dead_barrier(int *a) {
  if (threadIdx.x != 1u) {
    if (blockIdx.x == 3u) {
      __syncthreads();
    }
    a[threadIdx.x] = 1;
  }
}
