//xfail:front-end
//--blockDim=64 --gridDim=2
// Unsupported construct: inline PTX that loads from memory (`ld.global`):
// warpsafe lowers only PTX that computes on registers.
__global__ void loadVia(unsigned *out, const unsigned *in)
{
  unsigned v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(in + threadIdx.x));
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
