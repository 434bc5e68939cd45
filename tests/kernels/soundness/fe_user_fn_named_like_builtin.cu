//pass
//--blockDim=4 --gridDim=1
// A user __device__ function named like a built-in (`labs`, the `half`
// type) is the function called: C++ lookup finds the user's declaration.
// As built-ins, `labs(0)` would be 0 and `half(t)` a conversion, so the
// two writes would meet at index 0.
__device__ int labs(int x) { return x + 64; }
__device__ unsigned half(unsigned x) { return 2 * x + 1; }
__global__ void k(int *a) {
  unsigned t = threadIdx.x;
  a[labs(0) + t] = 1;
  a[half(t)] = 2;
}
