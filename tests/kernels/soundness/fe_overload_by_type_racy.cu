//xfail:data-race
//--blockDim=4 --gridDim=1
// The argument is an `int`: the exact match is `put(int*, int)`, declared
// second, which makes every thread write a[0].
__device__ void put(int *a, unsigned i) { a[i] = 1; }
__device__ void put(int *a, int v) { a[0] = v; }
__global__ void k(int *a) {
  put(a, (int)threadIdx.x);
}
