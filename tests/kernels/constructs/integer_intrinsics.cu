//pass
//--blockDim=64 --gridDim=1
// Shared indices computed by integer intrinsics, each one-to-one on the
// thread index, so no two threads write one element: the static engine
// needs the intrinsics' exact bit-level meaning to prove it.
__global__ void bitIndices(unsigned *out)
{
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;

  s[__byte_perm(t, 0, 0x4440)] = t;            // the low byte of t
  __syncthreads();
  s[__funnelshift_r(t, 0u, 0)] += 1;           // t itself
  __syncthreads();
  s[__brev(__brev(t))] += 2;                   // t again
  __syncthreads();
  s[__ffs(1 << t % 32) - 1 + (t / 32) * 32] += 3; // t's bit found again
  __syncthreads();
  s[__funnelshift_rc(0u, t, 40)] += 4;         // shifted by 32 (clamped): t
  __syncthreads();
  out[t] = s[63 - t];
}
