//pass
//--blockDim=64 --gridDim=4
// Stream compaction with an atomic ticket: every thread with a positive
// value takes a slot with atomicAdd(count, 1) and writes it. atomicAdd
// returns a different old value to each thread (the counter only ever
// grows by a positive constant, once per thread, far below 2^32 in all),
// so no two threads write one slot.
__global__ void compactPositive(const int *in, int *out, unsigned *count)
{
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  if (v > 0) {
    unsigned slot = atomicAdd(count, 1u);
    out[slot] = v;
  }
}
