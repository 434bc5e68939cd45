//xfail:data-race
//
// The twin of launch_out_param.cu whose helper is asked for blocks of up
// to 128 threads: thread 64 of block 0 and thread 0 of block 1 both
// clear element 64.
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
  grid_size(n, 128, blocks, threads);
  clear<<<blocks, threads>>>(out, n);
}
