//pass
//--blockDim=2 --gridDim=1
// `*++p` and `*(q += 2)` write through the updated pointers (x[1] and
// x[5]); thread 1 writes x[2] and x[7], which they never meet.
__global__ void k(int *x) {
  if (threadIdx.x == 0) {
    int *p = x;
    *++p = 1;
    int *q = x + 3;
    *(q += 2) = 9;
  } else {
    x[2] = 2;
    x[7] = 2;
  }
}
