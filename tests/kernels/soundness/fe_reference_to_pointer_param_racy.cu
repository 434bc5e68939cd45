//xfail:data-race
//--blockDim=4 --gridDim=1
// `adv` takes its pointer by reference (`int *&`): the caller's `p` moves
// to x + 1 and thread 0 writes x[1], as thread 1 does. Passed by value,
// `p` would stay at x and the race would be hidden.
__device__ void adv(int *&p) { p++; }
__global__ void k(int *x) {
  if (threadIdx.x == 0) {
    int *p = x;
    adv(p);
    *p = 6;
  } else if (threadIdx.x == 1) {
    x[1] = 7;
  }
}
