//pass
//--gridDim=4
// GPUVerify's file-scope __axiom: an assumption of every kernel in the
// file. The block size is left symbolic by the flags and fixed by the
// axioms, which is what makes the 1-D index `blockIdx.x * 64 + threadIdx.x`
// race-free (in a 2-D block, threads differing in threadIdx.y would share
// it).

#include <cuda.h>
#ifndef __WARPSAFE_CUDA_H
// nvcc: GPUVerify's annotations compile to nothing.
#define __axiom(e)
#endif

__axiom(blockDim.x == 64);
__axiom(blockDim.y == 1 && blockDim.z == 1);

__global__ void fixedBlockSize(int *out)
{
  out[blockIdx.x * 64 + threadIdx.x] = threadIdx.x;
}
