//xfail:data-race
//--blockDim=4 --gridDim=1
// `stride` is 0 by its default member initialiser: every thread writes
// x[0].
struct P { unsigned stride = 0; };
__global__ void k(int *x) {
  P p;
  x[threadIdx.x * p.stride] = 1;
}
