//xfail:assert
//--blockDim=1 --gridDim=3 --volatile=atomic
// Seed 003 Fig. 7/8 (bintree): inserting values into a binary search tree
// kept in an array, three slots per node (value, left, right; 0 is null).
// A thread that finds its child slot empty allocates a node and links it
// with a plain store, not a CAS: when two threads find the same slot empty,
// the second link overwrites the first and that node dangles. It takes
// three threads: one builds the root, two race for its right child (Fig.
// 8). The last block to finish walks the tree and asserts it holds every
// value. The fences publish a node's value before its link and order a
// link's read before the reads of the node it names.
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
        T[child] = node;
        break;
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
