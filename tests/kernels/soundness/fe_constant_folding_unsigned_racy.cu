//xfail:data-race
//--blockDim=4 --gridDim=1
// Constants fold with C's types: `u - 2` is an unsigned 4294967295, so
// `q > 0` holds and every thread writes x[0]. Folded in wide signed
// arithmetic, q would be -1 and the race-free branch taken.
__global__ void k(int *x) {
  const unsigned u = 1;
  const long long q = u - 2;
  if (q > 0)
    x[0] = threadIdx.x;
  else
    x[threadIdx.x] = 1;
}
