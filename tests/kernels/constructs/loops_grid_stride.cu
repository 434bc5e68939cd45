//pass
//
// A grid-stride loop: each thread starts at its global index and steps by
// the number of threads in the grid, so no two threads meet. Checked for
// any launch (the block and the grid are symbolic).
__global__ void fill(char *ptr, int sz, char val)
{
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < sz;
       idx += gridDim.x * blockDim.x) {
    ptr[idx] = val;
  }
}
