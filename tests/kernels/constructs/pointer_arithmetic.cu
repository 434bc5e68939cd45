//pass
//--blockDim=128 --gridDim=2
// Pointer parameters and pointer arithmetic: each thread owns the four floats
// at out + 4*gid and writes them through p[k], *(p + k) and an incremented
// pointer; the input is a const float * __restrict__ read the same way.
__global__ void pointerArithmetic(const float * __restrict__ in,
                                  float * __restrict__ out)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float *src = in + 4 * gid;
  float *p = out + 4 * gid;

  p[0] = src[0];
  p[1] = src[1] * 2.0f;
  *(p + 2) = *(src + 2) + 1.0f;

  float *q = p;
  ++q;
  q += 2;
  *q = (float)(q - p) + src[3];   // p[3]
}
