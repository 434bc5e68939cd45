//pass
//--blockDim=64 --gridDim=2
//
// Conversions written as calls: `Real(4.0)` with a template type parameter,
// `uint(x)` with a typedef, `(clock_t)(b - a)` (which the grammar reads as a
// call of a parenthesised name), and C's frexp(x, &e), whose exponent is
// stored through the pointer. Each thread writes its own elements.
typedef unsigned int uint;

template <typename Real>
__global__ void scaleByExponent(const Real *x, int *exps, Real *out, long *ticks)
{
  uint i = uint(blockIdx.x * blockDim.x + threadIdx.x);
  long start = clock();
  int e;
  Real m = frexp(x[i], &e);
  exps[i] = e;
  out[i] = m * Real(4.0);
  ticks[i] = (clock_t)(clock() - start);
}

template __global__ void scaleByExponent<float>(const float *, int *, float *, long *);
