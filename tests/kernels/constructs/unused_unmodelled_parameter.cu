//pass
//--blockDim=32 --gridDim=1
// A parameter of a type warpsafe cannot model (a struct passed by value
// with a large array field that is not const) that the kernel never uses:
// it is listed as unused, and the kernel lowers.
struct Weights {
  float w[100];
};

__global__ void touchOne(Weights weights, int *a)
{
  a[threadIdx.x] = 1;
}
