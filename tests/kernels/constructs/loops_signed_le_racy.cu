//xfail:data-race
//--blockDim=256 --gridDim=1
//
// The racy twin of loops_signed_le.cu: the second barrier is missing, so a
// thread's write of `s` in one iteration meets another's read of it in the
// next.
__global__ void tiles(float *out, int first, int last)
{
  __shared__ float s[256];
  for (int a = first; a <= last; a += 256) {
    s[threadIdx.x] = out[a + threadIdx.x];
    __syncthreads();
    out[a + threadIdx.x] = s[255 - threadIdx.x];
  }
}
