//xfail:front-end
//--blockDim=128 --gridDim=1
// libcu++'s asynchronous copies are not modelled: the kernel is left out
// with a message naming the first construct it meets,
// `cuda::aligned_size_t`, a namespace-qualified template call that parses
// as one (it used to be a "syntax error").
#include <cuda/pipeline>

__global__ void stage(float *out, const float *in)
{
  __shared__ float tile[128];
  auto shape = cuda::aligned_size_t<16>(sizeof(float) * 4);
  cuda::memcpy_async(&tile[threadIdx.x & ~3], &in[threadIdx.x & ~3], shape, pipe);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
