// A histogram whose bins are incremented without atomics: threads that
// see the same value race on its bin (`atomicAdd(&counts[bin], 1)` fixes
// it).
#include "bounds.cuh"

__global__ void histogram(const int *values, int *counts, int n, int bins) {
  int i = globalIndex();
  if (i < n) {
    int bin = values[i] % bins;
    if (bin >= 0) {
      counts[bin] = counts[bin] + 1;
    }
  }
}
