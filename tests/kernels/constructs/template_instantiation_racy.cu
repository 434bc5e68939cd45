//xfail:data-race
//--blockDim=64 --gridDim=4
// Of the two explicit instantiations, `scale<0>` makes every thread write
// a[0]: a race that checking only one instantiation could miss.
template <int STRIDE>
__global__ void scale(float *a, float s) {
  unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) * STRIDE;
  a[i] = s;
}
template __global__ void scale<1>(float *, float);
template __global__ void scale<0>(float *, float);
