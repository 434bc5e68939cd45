//pass
//--blockDim=256
// Grid-stride loops over a `size_t` element count, as most real kernels
// write them: a 64-bit counter (`size_t i`) and an `int` counter compared
// with a `size_t` bound (`i < n / sizeof(int)`). No two threads meet, for
// any launch. The 64-bit counter could only wrap around 2^64 for a bound
// within one grid stride of 2^64, which `check` assumes away and says so
// (`--counter-wrap` drops the assumption).
// The corpus runs it with 256-thread blocks, so that the grid stride is
// linear and the proof does not depend on how fast the solver refines a
// nonlinear one on a loaded machine; `tests/check.rs` checks it for any
// launch.
#include <cstddef>

__global__ void axpy(float a, const float *x, float *y, size_t n)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

__global__ void copy_words(int *dst, const int *src, size_t bytes)
{
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < bytes / sizeof(int);
       i += stride) {
    dst[i] = src[i];
  }
}
