//xfail:assert
//--blockDim=2 --gridDim=1
// Each thread scales its input element by `factor`; the inputs must not be
// negative. With the default (zeroed) inputs the assertion holds; with
// `--param factor=3 --array in=[4,-1]` it fails in thread 1, and with
// `--array in=[4,5] --outcomes` the outputs are 12 and 15.
#include <assert.h>

__global__ void scale(const int *in, int *out, int factor)
{
  int v = in[threadIdx.x];
  assert(v >= 0);
  out[threadIdx.x] = v * factor;
}
