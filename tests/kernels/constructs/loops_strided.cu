//pass
//--blockDim=128 --gridDim=4
// Loops with non-unit strides, each race-free only because of its stride
// (seed 002 §5, loop normalisation): a grid-stride loop, a block-stride fill
// of a shared tile, a stride of two global widths touching pairs, a
// grid-stride loop counting down, power-of-two offsets stepping `s *= 2`
// and `s >>= 1`, and a stride that a precondition fixes.

#include <cuda.h>
#ifndef __WARPSAFE_CUDA_H
// nvcc: GPUVerify's annotations compile to nothing.
#define __requires(e)
#endif

__global__ void gridStrideScale(float *out, const float *in, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = 2.0f * in[i];
  }
}

__global__ void blockStrideTile(int *out)
{
  __shared__ int tile[1024];
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) {
    tile[i] = i;
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) {
    out[blockIdx.x * 1024 + i] = tile[1023 - i];
  }
}

__global__ void pairsPerThread(int *a, int n)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 2 * gid; i < n - 1; i += 2 * blockDim.x * gridDim.x) {
    a[i] = 0;
    a[i + 1] = 1;
  }
}

// (`n >= 0`: otherwise `n - 1 - gid` overflows.)
__global__ void gridStrideCountDown(int *a, int n)
{
  __requires(n >= 0);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = n - 1 - gid; i >= 0; i -= blockDim.x * gridDim.x) {
    a[i] = i;
  }
}

// Offsets 1, 2, 4, ..., 32 in a row of 48 slots per thread, and 2, 4, ...,
// 64 in a row of 40: with the ranges alone, rows would overlap.
__global__ void powerOfTwoOffsets(int *a, int *b)
{
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned s = 1; s < 64; s *= 2) {
    a[gid * 48 + s] = s;
  }
  for (unsigned s = 32; s > 0; s >>= 1) {
    b[gid * 40 + s + s] = s;
  }
}

__global__ void strideFromPrecondition(int *a, int k)
{
  __requires(k == 2 * blockDim.x);
  for (int i = threadIdx.x; i < 4096; i += k) {
    a[blockIdx.x * 4096 + i] = i;
  }
}
