//pass
//--blockDim=128 --gridDim=2 --template-args=int,128
// A kernel template with no instantiation in the file: the type and block size
// come from --template-args=int,128. Shared-memory tree reduction over BLOCK
// elements of type T.
template <typename T, int BLOCK>
__global__ void blockSumT(const T *in, T *out)
{
  __shared__ T s[BLOCK];
  int tid = threadIdx.x;

  s[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
