//xfail:heterogeneous-race
//--blockDim=1 --gridDim=2
// Store buffering across two blocks with block-scoped atomic intrinsics
// (atomicExch_block, atomicAdd_block): every pair of accesses to x and y
// is a heterogeneous race. `explore --repair` renames each intrinsic to
// its device-scoped form.
__global__ void sb(int *x, int *y, int *r)
{
  if (blockIdx.x == 0) {
    atomicExch_block(&x[0], 1);
    r[0] = atomicAdd_block(&y[0], 0);
  } else {
    atomicExch_block(&y[0], 1);
    r[1] = atomicAdd_block(&x[0], 0);
  }
}
