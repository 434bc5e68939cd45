//pass
//--blockDim=4 --gridDim=1
// `sizeof` of an array object is its size in bytes (16), not a pointer's
// (8): the stride is 4 and the second write lands between the first ones.
__global__ void k(int *x) {
  int arr[4];
  arr[0] = 0;
  x[threadIdx.x * (sizeof(arr) / 4)] = 1;
  x[threadIdx.x * 4 + 2] = arr[0];
}
