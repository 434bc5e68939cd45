//xfail:data-race
//--blockDim=4 --gridDim=1
// C++17 evaluates the right operand of an assignment first: `x[c] +=
// bump(&c)` updates x[1] (c is 1 by then), which thread 1 also writes.
// Evaluating the left side first would update x[0] and hide the race.
__device__ int bump(int *c) { return ++*c; }
__global__ void k(int *x) {
  if (threadIdx.x == 0) {
    int c = 0;
    x[c] += bump(&c);
  } else if (threadIdx.x == 1) {
    x[1] = 7;
  }
}
