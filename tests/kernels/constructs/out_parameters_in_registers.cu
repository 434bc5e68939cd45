//pass
//--blockDim=64 --gridDim=4
// Out-parameters of built-ins pointing at variables kept in registers:
// `__sincosf` writing the fields of a struct passed by reference,
// `curand_uniform` updating a generator state held in a local copy and
// reached through a reference, and `frexpf` storing the exponent.
#include <curand_kernel.h>

struct Complex { float re, im; };

__device__ void twiddle(Complex &t, float phase) { __sincosf(phase, &t.im, &t.re); }

__device__ void point(float &x, float &y, curandState &state)
{
  x = curand_uniform(&state);
  y = curand_uniform(&state);
}

__global__ void sample(float *out, curandState *states)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Complex t;
  twiddle(t, i * 0.5f);
  curandState local = states[i];
  float a, b;
  point(a, b, local);
  states[i] = local;
  int e;
  float m = frexpf(a, &e);
  out[i] = t.re * a + t.im * b + m * e;
}
