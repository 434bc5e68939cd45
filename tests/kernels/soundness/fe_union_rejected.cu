//xfail:front-end
//--blockDim=4 --gridDim=1
// A union's members share storage: a write through `i` and a read through
// `f` meet. warpsafe does not model unions and must reject the kernel
// rather than lower the members to separate slots.
union U { int i; float f; };
__global__ void k(float *out) {
  __shared__ U u;
  if (threadIdx.x == 0) u.i = 1;
  if (threadIdx.x == 1) out[0] = u.f;
}
