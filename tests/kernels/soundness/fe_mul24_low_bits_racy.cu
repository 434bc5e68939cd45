//xfail:data-race
//--blockDim=4 --gridDim=1
// `__umul24` multiplies only the low 24 bits of its operands: with
// `1 << 24` as an operand the product is 0 for every thread, so all write
// x[0]. A full multiply would give distinct indices.
__global__ void k(int *x) {
  unsigned t = threadIdx.x;
  x[__umul24(1u << 24, t + 1)] = 1;
}
