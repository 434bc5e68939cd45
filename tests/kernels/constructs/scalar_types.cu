//pass
//--blockDim=128 --gridDim=4
// Scalar types: int, unsigned, bool, float, double, char, short, long long,
// size_t and the <stdint.h> fixed-width types uint32_t / int64_t. Every thread
// reads and writes only its own element of each array.
#include <stdint.h>

__global__ void scalarTypes(int *i32, unsigned *u32, bool *flags, float *f32,
                            double *f64, char *c8, short *s16, long long *i64,
                            size_t *sz, uint32_t *fixedU, int64_t *fixedI)
{
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

  int i = i32[gid];
  unsigned u = u32[gid] + 1u;
  bool odd = (i & 1) != 0;
  float f = f32[gid] * 0.5f;
  double d = f64[gid] + 1.0;
  char c = (char)('a' + (int)(gid % 26));
  short s = (short)(i >> 16);
  long long big = (long long)i * 1000000LL;
  uint32_t fu = fixedU[gid] ^ 0xdeadbeefu;
  int64_t fi = fixedI[gid] - (int64_t)42;

  i32[gid] = odd ? i + 1 : i;
  u32[gid] = u;
  flags[gid] = odd;
  f32[gid] = f;
  f64[gid] = d * 2.0;
  c8[gid] = c;
  s16[gid] = s;
  i64[gid] = big;
  sz[gid] = gid * 4u;
  fixedU[gid] = fu;
  fixedI[gid] = fi;
}
