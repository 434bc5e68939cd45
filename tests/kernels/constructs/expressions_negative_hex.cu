//pass
//--blockDim=64 --gridDim=1
// Negated hexadecimal literals (with suffixes and both cases of the x)
// are ordinary negative numbers: thread t writes a[t] exactly once.
__global__ void negativeHex(int *a) {
  int back = -0x10;
  long far = -0X7fffffffL;
  a[threadIdx.x + 16 + back] = (int)(far % 2);
}
