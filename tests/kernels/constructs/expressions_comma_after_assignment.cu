//pass
//--blockDim=64 --gridDim=1
// A comma expression whose left operand is an assignment, in parentheses:
// `j = (j <<= 1, j + 1)` shifts j, then assigns j + 1 (3 from 1). The
// grammar reads `j <<=` and an error; the front end parenthesises the
// assignment (what the comma's precedence means) and parses again.

__global__ void commaAfterAssignment(int *out) {
  int j = 1;
  j = (j <<= 1, j + 1);
  int k = (j += 1, j * 64);
  out[k + threadIdx.x] = j;
}
