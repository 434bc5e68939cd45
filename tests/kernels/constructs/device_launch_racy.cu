//xfail:data-race
//--blockDim=4 --gridDim=2
//
// The racy twin of device_launch.cu: every thread of a block records the
// launch in the block's one slot.
__global__ void scale(float *data, int n, float by)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= by;
}

__global__ void parent(float *data, int *seen, int n)
{
  if (threadIdx.x == 0)
    scale<<<(n + 127) / 128, 128>>>(data + blockIdx.x * n, n, 2.0f);
  seen[blockIdx.x] = threadIdx.x;
}
