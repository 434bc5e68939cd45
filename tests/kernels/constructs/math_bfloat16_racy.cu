//xfail:data-race
//--blockDim=64 --gridDim=2
//
// The racy twin of math_bfloat16.cu: without the barrier a thread reads
// its neighbour's bfloat16 while the neighbour may still be writing it.
#include <cuda_bf16.h>

__global__ void narrow(const float *in, float *out) {
  __shared__ __nv_bfloat16 buf[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = __float2bfloat16(in[i]);
  __nv_bfloat16 v = buf[(threadIdx.x + 1) % 64];
  out[i] = __bfloat162float(v);
}
