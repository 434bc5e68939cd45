//pass
//--blockDim=1 --gridDim=2
// Seed 003's aMin, fixed (amin_cas.cu with the usual retry loop): a CAS
// that fails retries with the value it found, so no smaller value is lost
// and every thread sees a minimum at most its own value. Block b offers 10 - b; the first block
// to arrive sets the start value 100 (so the kernel needs no input), the
// others wait for it.
__device__ void atomicMinByCas(int *addr, int value)
{
  int old = atomicAdd(addr, 0);
  while (value < old) {
    int seen = atomicCAS(addr, old, value);
    if (seen == old) break;
    old = seen;
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
