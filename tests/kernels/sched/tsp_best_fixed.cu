//pass
//--blockDim=1 --gridDim=2 --volatile=atomic
// Seed 003's tsp, fixed (tsp_best.cu with the test repeated under the
// lock): the early test only saves taking the lock; the one that decides
// runs while the block holds it, so a worse tour never replaces a better
// one. The last block to finish (a counter, fences around it)
// checks that the best score survived.
__global__ void bestTour(volatile int *best, int *bestBlock, int *lock, int *done)
{
  int score = 10 + blockIdx.x;
  if (score > best[0]) {
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    if (score > best[0]) {
      best[0] = score;
      bestBlock[0] = blockIdx.x;
    }
    __threadfence();
    atomicExch(lock, 0);
  }
  __threadfence();
  if (atomicAdd(done, 1) == gridDim.x - 1) {
    __threadfence();
    assert(best[0] == 10 + gridDim.x - 1);
    assert(bestBlock[0] == gridDim.x - 1);
  }
}
