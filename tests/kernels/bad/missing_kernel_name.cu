//xfail:front-end
//--blockDim=64 --gridDim=2 --kernel=doesNotExist
// --kernel names a kernel that the file does not define (it defines only
// addOne and subOne).
__global__ void addOne(int *a)
{
  a[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

__global__ void subOne(int *a)
{
  a[blockIdx.x * blockDim.x + threadIdx.x] -= 1;
}
