//pass
//--blockDim=256 --gridDim=4
// A tree reduction whose loop halves its step with `while (i != 0)`: the
// trip count depends on blockDim.x but is the same in every thread, so
// the barrier in it is aligned; each step adds the upper half onto the
// lower half.
__global__ void halvingWhile(const float *in, float *out)
{
  extern __shared__ float s[];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  unsigned i = blockDim.x / 2;
  while (i != 0) {
    if (t < i)
      s[t] += s[t + i];
    __syncthreads();
    i /= 2;
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
