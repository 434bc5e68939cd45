//xfail:data-race
//--blockDim=4 --gridDim=1
// `sizeof(arr) / 8` is 2 (a 16-byte array), so thread 2 writes x[4] in the
// first statement and thread 0 writes x[4] in the second. With `sizeof`
// taken as a pointer's size (8) the stride would be 1 and the writes would
// never meet.
__global__ void k(int *x) {
  int arr[4];
  arr[0] = 0;
  x[threadIdx.x * (sizeof(arr) / 8)] = 1;
  x[threadIdx.x + 4] = arr[0];
}
