//xfail:front-end
//--blockDim=32 --gridDim=1
// A macro whose expansion grows exponentially: preprocessing stops at its
// limit and the oversized result is rejected, without hanging.
#define A(x) x x x x x x x x x x
#define B(x) A(A(A(A(A(A(x))))))
__global__ void k(int *a)
{
  B(a[threadIdx.x] = 1;)
}
