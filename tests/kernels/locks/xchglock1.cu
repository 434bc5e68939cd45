//xfail:data-race
//--blockDim=1 --gridDim=2
// xchglock.cu without its fences: atomicExch is relaxed, so taking the
// lock does not order the counter update after the previous holder's.
__global__ void xchglock(int *lock, int *counter)
{
  while (atomicExch(lock, 1) != 0)
    ;
  counter[0] = counter[0] + 1;
  atomicExch(lock, 0);
}
