//pass
//--blockDim=32 --gridDim=1
// A parameter of a type warpsafe cannot model (a pointer to pointers) that
// the kernel never uses: it is listed as unused, and the kernel lowers.
__global__ void touchOne(char **argv, int *a)
{
  a[threadIdx.x] = 1;
}
