//xfail:assert
//--blockDim=1 --gridDim=2 --volatile=atomic
// Seed 003's tsp: each block scores a tour and records the best one under a
// spin lock. This version tests `score > best` before taking the lock and
// not again inside it: a block that passed the test, then waited for the
// lock while another block stored a better tour, overwrites it with its
// worse one. The last block to finish (a counter, fences around it)
// checks that the best score survived.
__global__ void bestTour(volatile int *best, int *bestBlock, int *lock, int *done)
{
  int score = 10 + blockIdx.x;
  if (score > best[0]) {
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    best[0] = score;
    bestBlock[0] = blockIdx.x;
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
