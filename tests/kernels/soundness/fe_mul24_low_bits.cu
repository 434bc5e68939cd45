//pass
//--blockDim=4 --gridDim=1
// `__mul24` sign-extends the low 24 bits: 0xffffff is -1, so the index is
// 64 - t, distinct per thread; `__umul24(t + (1 << 24), 2)` is 2t.
__global__ void k(int *x) {
  int t = threadIdx.x;
  x[64 + __mul24(0xffffff, t)] = 1;
  x[__umul24(t + (1 << 24), 2)] = 2;
}
