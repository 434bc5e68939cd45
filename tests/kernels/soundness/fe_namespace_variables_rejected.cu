//xfail:front-end
//--blockDim=4 --gridDim=1
// `a::stride` and `b::stride` are different constants; warpsafe does not
// resolve qualified variable names, so it must reject the use rather than
// read whichever was declared last (b::stride = 0 would put every thread
// at x[0]).
namespace a { const unsigned stride = 1; }
namespace b { const unsigned stride = 0; }
__global__ void k(int *x) {
  x[threadIdx.x * a::stride] = 1;
}
