//pass
//--blockDim=4 --gridDim=1
// A default member initialiser runs when the object is declared: `off` is
// 1, so every thread writes its own slot. Dropped, `off` would be
// uninitialised.
struct P { unsigned off = 1; unsigned base; };
__global__ void k(int *x) {
  P p;
  p.base = 0;
  x[p.base + threadIdx.x * p.off] = 1;
}
