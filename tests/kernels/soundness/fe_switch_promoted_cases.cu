//pass
//--blockDim=4 --gridDim=1
// A switch on an `unsigned char` compares the promoted value (255) with
// each case converted to `int`: `case -1` never matches, `case 255` does,
// so each thread writes its own slot. Matching `case -1` would send every
// thread to x[0].
__global__ void k(int *x) {
  unsigned char c = 255;
  switch (c) {
  case -1: x[0] = threadIdx.x; break;
  case 255: x[threadIdx.x] = 1; break;
  }
}
