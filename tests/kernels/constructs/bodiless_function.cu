//pass
//--blockDim=64 --gridDim=2
// A __device__ function declared without a body and called with scalars
// only: its result is an unknown value, and it is assumed to touch no memory
// (the front end warns about the assumption).
__device__ float lookup(int i);

__global__ void gather(float *out)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = lookup(idx);
}
