//pass
//--blockDim=4 --gridDim=1
// Inside a method, an unqualified call finds the class's member first
// (`get` is `this->get`), hiding the free function of the same name, which
// would send every thread to x[0]. `this->` works the same way.
__device__ unsigned get(unsigned t) { return 0; }
struct S {
  unsigned base;
  __device__ unsigned get(unsigned t) { return base + t; }
  __device__ unsigned at(unsigned t) { return get(t); }
  __device__ unsigned at2(unsigned t) { return this->base + this->get(t); }
};
__global__ void k(int *x) {
  S s;
  s.base = 0;
  x[s.at(threadIdx.x)] = 1;
  x[s.at2(threadIdx.x) + 8] = 1;
}
