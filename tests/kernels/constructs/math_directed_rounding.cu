//pass
//--blockDim=32 --gridDim=1
//
// Interval arithmetic with CUDA's directed-rounding intrinsics: each
// thread encloses x + y, x * y and sqrt(x) between a result rounded down
// and one rounded up, and writes its own element of each bound.
__global__ void enclose(const float *x, const float *y, float *lo, float *hi,
                        double *dlo, double *dhi)
{
  unsigned i = threadIdx.x;
  lo[i] = __fadd_rd(x[i], y[i]) + __fmul_rd(x[i], y[i]) + __fsqrt_rd(x[i]);
  hi[i] = __fadd_ru(x[i], y[i]) + __fmul_ru(x[i], y[i]) + __fsqrt_ru(x[i]);
  double a = x[i], b = y[i];
  dlo[i] = __ddiv_rd(__dsub_rd(a, b), 3.0);
  dhi[i] = __ddiv_ru(__dsub_ru(a, b), 3.0);
}
