//xfail:assert
//--blockDim=1 --gridDim=2 --volatile=atomic
// Seed 003 Fig. 3: inserting a body into a Barnes-Hut tree. A thread that
// finds its cell unlocked locks it with a compare-and-swap on the value it
// read, and must then own the cell. The planted bug re-reads the cell
// between the check and the CAS: when another block locked the cell in
// between, the re-read sees LOCK, the CAS of LOCK by LOCK succeeds, and
// two threads own the cell. The canonical schedule (block 0 first) shows
// nothing; one delay of each thread shows the failing assertion (Fig. 4).
// The fences order the owners' writes (acquire after locking, release
// before unlocking).
#define LOCK -2

__global__ void insertBody(volatile int *child, int *owner)
{
  int cell = 0;
  int node = child[cell];
  if (node != LOCK) {
    node = child[cell];
    if (node == atomicCAS((int *)&child[cell], node, LOCK)) {
      assert(node != LOCK);
      __threadfence();
      owner[0] = blockIdx.x;
      __threadfence();
      child[cell] = blockIdx.x + 1;
    }
  }
}
