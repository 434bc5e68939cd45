// Helpers shared by the example's kernels (no kernel here: a run over the
// folder skips this file).
#pragma once

__device__ inline int globalIndex() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}
