//xfail:barrier-divergence
//--blockDim=2 --gridDim=1
// Found by the differential test (crates/cli/tests/differential.rs).
// Thread 0 passes the __syncthreads() inside the branch and returns; thread
// 1 passes the one after it. Every thread of the block arrives at a barrier
// once, but at different statements: barrier divergence (CUDA leaves it
// undefined). check reported it; explore matched barrier arrivals by count
// only, so it called the kernel SAFE.

__global__ void mismatched(int *a) {
  if (threadIdx.x == 0) {
    __syncthreads();
    return;
  }
  __syncthreads();
}
