//xfail:front-end
//--blockDim=64 --gridDim=2
// Unsupported construct: inline PTX via asm volatile(...) reading the
// %laneid special register.
__global__ void laneIds(unsigned *out)
{
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[blockIdx.x * blockDim.x + threadIdx.x] = lane;
}
