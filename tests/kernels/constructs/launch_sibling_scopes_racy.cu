//xfail:DATA_RACE
//
// As launch_sibling_scopes.cu, but the block that launches fillB declares
// `dim3 grid(2)`, and an inner block shadows it with `dim3 grid(1)` that the
// launch does not see: two blocks write the same elements.
__global__ void fillA(int *out) { out[threadIdx.x] = 1; }
__global__ void fillB(int *out) { out[threadIdx.x] = 2; }

void run(int *d, int threads)
{
  {
    dim3 grid(1);
    fillA<<<grid, threads>>>(d);
  }
  {
    dim3 grid(2);
    {
      dim3 grid(1);
      (void)grid;
    }
    fillB<<<grid, threads>>>(d);
  }
}
