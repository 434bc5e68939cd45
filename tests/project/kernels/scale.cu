// Each thread scales its own element: race-free for any launch.
#include "bounds.cuh"

__global__ void scale(float *data, float factor, int n) {
  int i = globalIndex();
  if (i < n) {
    data[i] = data[i] * factor;
  }
}
