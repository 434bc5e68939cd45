//pass
//--blockDim=128 --gridDim=4
// assert() from <assert.h> on facts that hold for every thread and every input,
// and device-side printf. Neighbouring threads swap elements (gid ^ 1), so each
// output element has exactly one writer.
#include <assert.h>
#include <stdio.h>

__global__ void swapNeighbours(const float *in, float *out)
{
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  assert(tid < blockDim.x);
  assert(gid < gridDim.x * blockDim.x);

  unsigned dst = (gid % 2 == 0) ? gid + 1 : gid - 1;
  assert(dst / 2 == gid / 2 && dst != gid);
  out[dst] = in[gid];

  if (gid == 0)
    printf("grid %u x block %u\n", gridDim.x, blockDim.x);
  if (in[gid] != in[gid])
    printf("NaN input at %u\n", gid);
}
