//pass
//--blockDim=64 --gridDim=2
// memcpy and memset with lengths known at compile time (a literal, sizeof,
// and a local constant), over structs with C padding: every touched field
// is read and written; each thread copies its own element.
#include <string.h>

struct Pair {
  short key;
  char tag;   // one byte of padding follows: sizeof(Pair) == 4
};

__global__ void copyPairs(const Pair *in, Pair *out, int *flags)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  memcpy(&out[i], &in[i], sizeof(Pair));
  size_t n = 4;
  memset(&flags[i], 0, n);
}
