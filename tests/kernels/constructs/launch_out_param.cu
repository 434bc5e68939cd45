//pass
//
// The launch comes from a helper that returns the grid and block sizes
// through reference parameters (particles' computeGridSize): the block
// has at most 64 threads, so `blockIdx.x * 64 + threadIdx.x` is one
// element per thread.
#include <cuda_runtime.h>

__global__ void clear(float *out, unsigned n) {
  unsigned i = blockIdx.x * 64 + threadIdx.x;
  if (i < n)
    out[i] = 0.0f;
}

static unsigned divide_up(unsigned a, unsigned b) { return (a + b - 1) / b; }

static void grid_size(unsigned n, unsigned block, unsigned &blocks, unsigned &threads) {
  threads = min(block, n);
  blocks = divide_up(n, threads);
}

void run(float *out, unsigned n) {
  unsigned blocks, threads;
  grid_size(n, 64, blocks, threads);
  clear<<<blocks, threads>>>(out, n);
}
