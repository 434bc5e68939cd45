//xfail:data-race
//--blockDim=128 --gridDim=4
// Strided loops that race, each with a witness the loop really reaches:
// a grid-stride loop whose stride forgets gridDim.x (block 1's first
// element is block 0's second), a stride shorter than the pair each thread
// writes, and power-of-two offsets that outgrow a row of 48 slots.

__global__ void strideForgetsGridDim(int *a, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {
    a[i] = i;
  }
}

__global__ void strideShorterThanPair(int *a)
{
  for (unsigned i = 2 * threadIdx.x; i < 1024; i += blockDim.x) {
    a[blockIdx.x * 1024 + i] = 0;
    a[blockIdx.x * 1024 + i + 1] = 1;
  }
}

__global__ void offsetsOutgrowTheRow(int *a)
{
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned s = 1; s < 128; s *= 2) {
    a[gid * 48 + s] = s;
  }
}
