//xfail:data race
//--blockDim=64 --gridDim=1
// The wrapping funnel shift keeps only 6 bits of the shift count, so
// `__funnelshift_l(0, t, 32)` shifts by 0 and every thread reads its high
// word back as 0: all threads write s[0], a race the static engine proves.
__global__ void bitIndicesRacy(unsigned *out)
{
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[__funnelshift_l(t, 0u, 32)] = t;
  __syncthreads();
  out[t] = s[t];
}
