//pass
//
// `Window w(out, start);` is C++'s most vexing parse: every argument is a
// plain name, so tree-sitter reads a function declaration. The names are
// variables in scope, so it constructs an object, as nvcc does. Each
// thread writes its own element of its block's window.
struct Window {
  int *data;
  int base;
  __device__ Window(int *d, int b) : data(d), base(b) {}
  __device__ void put(int v) { data[base + threadIdx.x] = v; }
};

__global__ void fill(int *out, int offset)
{
  int start = blockIdx.x * blockDim.x + offset;
  Window w(out, start);
  w.put(7);
}
