//xfail:data-race
//--blockDim=4 --gridDim=1
// Nested braces initialise one row each: M[0] is {1, 0}, so M[0][1] is 0
// and every thread writes x[0]. Flattened, M[0][1] would be 3. The
// unsized table T takes its length from its initialiser.
__device__ int M[2][2] = {{1}, {3, 4}};
__device__ int T[] = {4, 5, 6};
__global__ void k(int *x) {
  if (M[0][1] == 0 && T[2] == 6)
    x[0] = threadIdx.x;
  else
    x[threadIdx.x] = 1;
}
