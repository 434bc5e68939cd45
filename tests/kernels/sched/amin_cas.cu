//xfail:assert
//--blockDim=1 --gridDim=2
// Seed 003's aMin: an atomic minimum built from compare-and-swap (as
// atomicMin for doubles is, on the value's bits). This version tries the
// CAS once: when another block changes the minimum between the read and
// the CAS, the CAS fails and the smaller value is lost, so the minimum
// ends above this thread's value. Block b offers 10 - b; the first block
// to arrive sets the start value 100 (so the kernel needs no input), the
// others wait for it.
__device__ void atomicMinByCas(int *addr, int value)
{
  int old = atomicAdd(addr, 0);
  if (value < old) {
    atomicCAS(addr, old, value);
  }
}

__global__ void minimum(int *best, int *started)
{
  // The first block to arrive sets the start value.
  if (atomicCAS(started, 0, 1) == 0) {
    atomicExch(best, 100);
    atomicExch(started, 2);
  }
  while (atomicAdd(started, 0) != 2) {}
  int mine = 10 - blockIdx.x;
  atomicMinByCas(best, mine);
  assert(atomicAdd(best, 0) <= mine);
}
