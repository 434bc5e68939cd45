//pass
//--blockDim=64 --gridDim=2
// A call through a device function pointer chosen at run time: lowered as a
// choice among the functions of the file that take one argument.
__device__ float square(float x) { return x * x; }
__device__ float negate(float x) { return -x; }

__global__ void applyOp(float *a, int which)
{
  float (*op)(float) = (which == 0) ? square : negate;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  a[idx] = op(a[idx]);
}
