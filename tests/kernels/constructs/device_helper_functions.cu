//pass
//--blockDim=64 --gridDim=4
// __device__ helper functions: by-value, pointer and reference parameters,
// return values, early returns inside helpers and nested helper calls. Each
// thread writes the pair out[2*gid], out[2*gid+1] through a helper.
__device__ int clampIndex(int i, int n)
{
  if (i < 0)
    return 0;
  if (i >= n)
    return n - 1;
  return i;
}

__device__ float fetch(const float *base, int i, int n)
{
  return base[clampIndex(i, n)];
}

__device__ void accumulate(float &acc, float v)
{
  acc += v;
}

__device__ bool nearlyZero(float v)
{
  if (v < 0.0f)
    v = -v;
  return v < 1e-3f;
}

__device__ float smooth3(const float *in, int i, int n)
{
  float acc = 0.0f;
  accumulate(acc, fetch(in, i - 1, n));
  accumulate(acc, fetch(in, i, n));
  accumulate(acc, fetch(in, i + 1, n));
  return acc / 3.0f;
}

__device__ void storePair(float *dst, float a, float b)
{
  dst[0] = a;
  *(dst + 1) = b;
}

__global__ void smoothPairs(const float *in, float *out, int n)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float s = smooth3(in, gid, n);
  if (nearlyZero(s))
    s = 0.0f;
  storePair(out + 2 * gid, s, s * s);
}
