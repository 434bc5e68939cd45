//pass
//--blockDim=[32,4] --gridDim=2
// Inline PTX that reads the thread's lane: lane 0 of each warp (`%laneid`,
// numbered along the linear thread index) writes its warp's slot, and the
// count of lower lanes (`%lanemask_lt` and popc) is the lane itself. The
// register-only `add` gives an unknown value, stored to the thread's own
// element.
__global__ void perWarp(unsigned *out, unsigned *mine)
{
  __shared__ unsigned slot[4];
  unsigned lane, below, sum;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  asm("add.u32 %0, %1, %2;" : "=r"(sum) : "r"(lane), "r"(below));
  unsigned warp = (threadIdx.y * blockDim.x + threadIdx.x) / 32;
  if (lane == 0)
    slot[warp] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * 128 + warp * 32 + __popc(below)] = slot[warp];
  mine[blockIdx.x * 128 + threadIdx.y * 32 + threadIdx.x] = sum;
}
