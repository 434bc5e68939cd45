//xfail:data-race
//--blockDim=64 --gridDim=1
// interwarp_lock.cu without its fences: the relaxed CAS and exchange do not
// order the two counter updates, which race.
__global__ void interWarpLock(int *lock, int *counter, int *out)
{
  unsigned tid = threadIdx.x;
  out[tid] = tid;
  if (tid % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    counter[0] = counter[0] + 1;
    atomicExch(lock, 0);
  }
}
