//xfail:front-end
//--blockDim=4 --gridDim=1
// An `int` argument converts equally well to `long` and to `short`: the
// call is ambiguous in C++ and must be rejected, not resolved to the
// first declaration.
__device__ void put(int *a, long i) { a[i] = 1; }
__device__ void put(int *a, short i) { a[0] = i; }
__global__ void k(int *a) {
  put(a, (int)threadIdx.x);
}
