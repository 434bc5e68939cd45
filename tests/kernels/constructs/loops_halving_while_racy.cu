//xfail:data race
//--blockDim=256 --gridDim=4
// The halving reduction with its guard one step too wide: thread i adds
// s[2i] while thread 2i updates it in the same step.
__global__ void halvingWhileRacy(const float *in, float *out)
{
  extern __shared__ float s[];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  unsigned i = blockDim.x / 2;
  while (i != 0) {
    if (t <= i)
      s[t] += s[t + i];
    __syncthreads();
    i /= 2;
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
