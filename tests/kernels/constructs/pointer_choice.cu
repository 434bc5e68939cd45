//pass
//--blockDim=128 --gridDim=4
// Pointers whose array depends on the path taken: a conditional choice of
// buffer, and ping-pong buffers swapped on every iteration. Each access
// through them becomes a choice among the candidate arrays.
__global__ void pingPong(float *a, float *b, int iters, int useA)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *src = a;
  float *dst = b;
  for (int k = 0; k < iters; k++) {
    dst[i] = src[i] * 0.5f;
    float *t = src;
    src = dst;
    dst = t;
  }
  float *out = useA ? a : b;
  out[i] += 1.0f;
}
