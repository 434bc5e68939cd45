//xfail:front-end
//--blockDim=32 --gridDim=1
// An include of a device file, which would be read for ever: refused as
// not a regular file, with the include line pointed at.
#include "/dev/zero"
__global__ void k(int *a) { a[threadIdx.x] = 1; }
