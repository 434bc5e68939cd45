//xfail:data-race
//
// The racy twin of loops_grid_stride.cu: the loop starts at the thread's
// index in its block, so thread 0 of every block writes element 0.
__global__ void fill(char *ptr, int sz, char val)
{
  for (int idx = threadIdx.x; idx < sz; idx += gridDim.x * blockDim.x) {
    ptr[idx] = val;
  }
}
