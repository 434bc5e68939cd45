//xfail:front-end
//--blockDim=4 --gridDim=1
// Adjacent bit-fields are one memory location in C++: the writes to `f.a`
// and `f.b` by two threads race, and `f.a = 17` stores 1. warpsafe does not
// model bit-fields and must reject the kernel.
struct F { unsigned a : 4; unsigned b : 4; };
__global__ void k(int *o) {
  __shared__ F f;
  if (threadIdx.x == 0) f.a = 17;
  if (threadIdx.x == 1) f.b = 2;
}
