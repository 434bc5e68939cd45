//xfail:data-race
//--blockDim=4 --gridDim=1
// The constructor ignores its argument (`at(v * 0)`): every thread writes
// x[0]. Read as aggregate initialisation, `s.at` would be `threadIdx.x`.
struct Slot {
  unsigned at;
  __device__ Slot(unsigned v) : at(v * 0) {}
};
__global__ void k(int *x) {
  Slot s(threadIdx.x);
  x[s.at] = 1;
}
