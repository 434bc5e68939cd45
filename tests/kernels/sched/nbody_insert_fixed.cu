//pass
//--blockDim=1 --gridDim=2 --volatile=atomic
// Seed 003 Fig. 3, fixed (nbody_insert.cu without the planted re-read): the
// CAS compares with the value the check read, which is not LOCK, so a
// thread whose CAS succeeds owns the cell in every schedule. The fences
// order the owner's writes (release before unlocking, acquire after
// locking), so the blocks' writes to `owner` do not race.
#define LOCK -2

__global__ void insertBody(volatile int *child, int *owner)
{
  int cell = 0;
  int node = child[cell];
  if (node != LOCK) {
    if (node == atomicCAS((int *)&child[cell], node, LOCK)) {
      assert(node != LOCK);
      __threadfence();
      owner[0] = blockIdx.x;
      __threadfence();
      child[cell] = blockIdx.x + 1;
    }
  }
}
