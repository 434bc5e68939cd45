//xfail:data-race
//--blockDim=128 --gridDim=4
// The twin of local_array_unsized.cu: the index forgets the block, so
// every block writes the same 128 elements.
__global__ void letters(char *out, int *codes)
{
  const char letters[] = {'x', 'y', 'z', 'w'};
  const int weights[] {1, 2, 3, 4};
  int i = threadIdx.x;
  out[i] = letters[i % 4];
  codes[i] = weights[i % 4] * i;
}
