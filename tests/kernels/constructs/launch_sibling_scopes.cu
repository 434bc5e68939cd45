//pass
//
// Two blocks of the host code each declare their own `dim3 grid(1)`: each
// launch sees the declaration of its own block, so both kernels run one
// block, and indexing by threadIdx.x alone is race-free. (Before, two
// declarations of one name hid the launch's dimensions.)
__global__ void fillA(int *out) { out[threadIdx.x] = 1; }
__global__ void fillB(int *out) { out[threadIdx.x] = 2; }

void run(int *d, int threads)
{
  {
    dim3 grid(1);
    dim3 block(threads);
    fillA<<<grid, block>>>(d);
  }
  {
    dim3 grid(1);
    dim3 block(threads);
    fillB<<<grid, block>>>(d);
  }
}
