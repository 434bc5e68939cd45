//pass
//--blockDim=4 --gridDim=1
// Overload resolution: `put(a, threadIdx.x)` passes an `unsigned`, so the
// exact match `put(int*, unsigned)` is called (each thread its own slot),
// not the first-declared `put(int*, int)` (every thread at a[0]).
__device__ void put(int *a, int v) { a[0] = v; }
__device__ void put(int *a, unsigned i) { a[i] = 1; }
__global__ void k(int *a) {
  put(a, threadIdx.x);
}
