//pass
//--blockDim=64 --gridDim=1
// Two warps of one 64-thread block: lane 0 of each takes a fenced CAS spin
// lock around a counter update; every thread also writes its own slot of
// `out`. Only the two lock holders interact, so the explorer accepts the
// 64 threads (issue 12: the old limit of 16 threads refused it) and
// explores two executions, one per order of taking the lock.
__global__ void interWarpLock(int *lock, int *counter, int *out)
{
  unsigned tid = threadIdx.x;
  out[tid] = tid;
  if (tid % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    counter[0] = counter[0] + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
