//pass
//--blockDim=64 --gridDim=2
//
// bfloat16 (`__nv_bfloat16`, <cuda_bf16.h>): each thread rounds its input
// to bfloat16 (8 significant bits, to nearest, ties to even), keeps it in a
// shared bfloat16 buffer, and after a barrier writes its neighbour's value
// back as float.
#include <cuda_bf16.h>

__global__ void narrow(const float *in, float *out) {
  __shared__ __nv_bfloat16 buf[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = __float2bfloat16(in[i]);
  __syncthreads();
  __nv_bfloat16 v = buf[(threadIdx.x + 1) % 64];
  out[i] = __bfloat162float(v);
}
