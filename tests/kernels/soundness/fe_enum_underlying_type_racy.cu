//xfail:data-race
//--blockDim=4 --gridDim=1
// An enumeration with underlying type `unsigned char` holds 300 as 44:
// every thread takes the first branch and writes x[0].
enum class Mode : unsigned char { A = 200 };
__global__ void k(int *x) {
  Mode m = (Mode)300;
  if ((int)m == 44)
    x[0] = threadIdx.x;
  else
    x[threadIdx.x] = 1;
}
