//xfail:data-race
//--blockDim=4 --gridDim=1
// A union's members share storage: a write through `i` and a read through
// `f` meet, a race. (Once refused by the front end; lowering the members
// to separate slots would have hidden it.)
union U { int i; float f; };
__global__ void k(float *out) {
  __shared__ U u;
  if (threadIdx.x == 0) u.i = 1;
  if (threadIdx.x == 1) out[0] = u.f;
}
