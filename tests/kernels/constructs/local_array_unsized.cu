//pass
//--blockDim=128 --gridDim=4
// A local array whose length its brace list gives (`const char
// letters[] = {...}` and the C++11 form without `=`): each thread writes
// its own element. In local_array_unsized_racy.cu every block writes the
// same 128 elements.
__global__ void letters(char *out, int *codes)
{
  const char letters[] = {'x', 'y', 'z', 'w'};
  const int weights[] {1, 2, 3, 4};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = letters[i % 4];
  codes[i] = weights[i % 4] * i;
}
