//pass
//--blockDim=256 --gridDim=4
// A kernel template, template <typename T, int BLOCK>, instantiated by the
// launch blockReverse<float, 256><<<4, 256>>> in host code of the same file;
// BLOCK sizes the shared array and the index arithmetic.
template <typename T, int BLOCK>
__global__ void blockReverse(T *a)
{
  __shared__ T s[BLOCK];
  int tid = threadIdx.x;
  int gid = blockIdx.x * BLOCK + tid;

  s[tid] = a[gid];
  __syncthreads();
  a[gid] = s[BLOCK - 1 - tid];
}

void reverseBlocks(float *dData)
{
  blockReverse<float, 256><<<4, 256>>>(dData);
}
