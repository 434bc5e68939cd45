//xfail:data-race
//--blockDim=2 --gridDim=1
// `*++p` writes through the incremented pointer, x + 1: thread 0 and
// thread 1 both write x[1]. (The value of `++p` was once taken as p + 2,
// which moved thread 0's write to x[2] and hid the race.)
__global__ void k(int *x) {
  if (threadIdx.x == 0) {
    int *p = x;
    *++p = 1;
  } else {
    x[1] = 2;
  }
}
