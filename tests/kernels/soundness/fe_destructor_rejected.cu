//xfail:front-end
//--blockDim=4 --gridDim=1
// A destructor with a body runs at the end of the object's scope; warpsafe
// does not model destructors and must reject the kernel rather than drop
// the write it makes.
struct Guard {
  int *p;
  __device__ ~Guard() { p[0] = 1; }
};
__global__ void k(int *x) {
  Guard g;
  g.p = x;
}
