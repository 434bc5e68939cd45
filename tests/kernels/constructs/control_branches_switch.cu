//pass
//--blockDim=64 --gridDim=4
// if / else-if / else chains and switch statements with a fallthrough, grouped
// case labels and a default; every path ends by writing only the thread's slot.
__global__ void classify(const float *in, int *cls, float *out)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];

  int c;
  if (v < 0.0f)
    c = 0;
  else if (v < 1.0f)
    c = 1;
  else if (v < 10.0f)
    c = 2;
  else
    c = 3;

  float r = v;
  switch (c) {
  case 0:
    r = -r;
    /* fall through */
  case 1:
    r *= 2.0f;
    break;
  case 2:
    r += 1.0f;
    break;
  default:
    r = 10.0f;
    break;
  }

  switch (threadIdx.x % 4) {
  case 0:
  case 1:
    r += 0.5f;
    break;
  default:
    if (r > 5.0f) {
      r -= 5.0f;
    } else {
      r = 0.0f;
    }
  }

  cls[gid] = c;
  out[gid] = r;
}
