//xfail:data-race
//--blockDim=4 --gridDim=1
// A reference is bound once: `r` is x[0] for every thread, although `i`
// changes afterwards, so all threads write x[0]. Re-evaluating `x[i]` at
// each use of `r` would give x[threadIdx.x] and hide the race.
__global__ void k(int *x) {
  int i = 0;
  int &r = x[i];
  i = threadIdx.x;
  r = 1;
}
