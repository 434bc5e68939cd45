//pass
//--blockDim=128 --gridDim=2
// Device math: sqrtf, expf, fabsf, sinf, powf, floorf, __fdividef and the
// integer min/max overloads, all on per-thread values.
__global__ void mathMix(const float *x, float *y, const int *a, int *b)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[gid];

  float r = sqrtf(fabsf(v)) + expf(-v * v) + sinf(v);
  r += powf(fabsf(v), 1.5f) + floorf(v);
  r = __fdividef(r, 1.0f + fabsf(v));
  y[gid] = r;

  b[gid] = max(min(a[gid], 100), -100);
}
