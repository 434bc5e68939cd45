//xfail:data-race
//--blockDim=[32,4] --gridDim=2
// `%lanemask_le` counts the lane itself too: it is 3 (lanes 0 and 1) in
// lane 1, which then writes the element lane 0 writes (`%laneid`).
__global__ void perWarp(unsigned *out)
{
  unsigned upTo, lane;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(upTo));
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned base = blockIdx.x * 128 + (threadIdx.y * blockDim.x + threadIdx.x) / 32 * 32;
  out[base + lane] = lane;
  if (upTo == 3)
    out[base] = upTo;
}
