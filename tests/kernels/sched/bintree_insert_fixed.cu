//pass
//--blockDim=1 --gridDim=3 --volatile=atomic
// Seed 003 Fig. 7/8 (bintree), fixed (bintree_insert.cu linking with a
// CAS): a thread whose CAS on the child slot fails finds the slot taken and
// goes down from it, so every node stays linked. The last block to finish
// walks the tree and asserts it holds every value. The fences publish a
// node's value before its link (without them, DPOR finds a thread reading
// a linked node's slot as still empty under the memory model).
__global__ void insertAll(volatile int *T, int *size, int *done)
{
  int val = blockIdx.x + 1;
  int curr = 0;
  while (true) {
    if (T[curr] != 0) {
      int child = T[curr] <= val ? curr + 2 : curr + 1;
      if (T[child] == 0) {
        int node = atomicAdd(size, 3) + 3;
        T[node] = val;
        __threadfence();
        if (atomicCAS((int *)&T[child], 0, node) == 0) break;
        curr = T[child];
        __threadfence();
      } else {
        curr = T[child];
        __threadfence();
      }
    } else {
      if (atomicCAS((int *)&T[curr], 0, val) == 0) break;
    }
  }
  __threadfence();
  if (atomicAdd(done, 1) == gridDim.x - 1) {
    __threadfence();
    int stack[8];
    int top = 0;
    int found = 0;
    stack[top++] = 0;
    while (top > 0) {
      int n = stack[--top];
      found++;
      if (T[n + 1] != 0 && top < 8) stack[top++] = T[n + 1];
      if (T[n + 2] != 0 && top < 8) stack[top++] = T[n + 2];
    }
    assert(found == gridDim.x);
  }
}
