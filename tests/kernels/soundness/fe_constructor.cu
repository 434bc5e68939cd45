//pass
//--blockDim=4 --gridDim=1
// Constructors run: the member initialiser list, then the body, and a
// delegating constructor runs its target first. `Slot(t)` holds
// 2 * t + 1, `Slot()` delegates to `Slot(0u)` and then adds 100.
struct Slot {
  unsigned at;
  __device__ Slot(unsigned t) : at(2 * t) { at = at + 1; }
  __device__ Slot() : Slot(0u) { at += 100; }
};
__global__ void k(int *x) {
  Slot s(threadIdx.x);
  x[s.at] = 1;
  if (threadIdx.x == 0) {
    Slot d;
    x[d.at] = 2;
  }
}
