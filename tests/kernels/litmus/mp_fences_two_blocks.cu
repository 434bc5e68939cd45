//pass
//--blockDim=1 --gridDim=2
// Message passing across blocks with __threadfence() on both sides of a
// relaxed flag (atomicExch / atomicAdd): the device-scoped fences
// synchronise, so the data read is never stale.
#include <assert.h>

__global__ void mp(int *data, int *flag)
{
  if (blockIdx.x == 0) {
    atomicExch(&data[0], 42);
    __threadfence();
    atomicExch(&flag[0], 1);
  } else if (atomicAdd(&flag[0], 0) == 1) {
    __threadfence();
    assert(atomicAdd(&data[0], 0) == 42);
  }
}
