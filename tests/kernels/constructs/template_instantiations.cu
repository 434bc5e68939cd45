//pass
//--blockDim=64 --gridDim=4
// A kernel template with two explicit instantiations and a launch of a
// third: each instantiation is lowered and checked as its own kernel
// (`scale<1>`, `scale<2>`, `scale<4>`).
template <int STRIDE>
__global__ void scale(float *a, float s) {
  unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) * STRIDE;
  a[i] = a[i] * s;
}
template __global__ void scale<1>(float *, float);
template __global__ void scale<2>(float *, float);

void host(float *d) { scale<4><<<4, 64>>>(d, 2.0f); }
