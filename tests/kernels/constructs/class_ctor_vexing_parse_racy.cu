//xfail:data-race
//
// The racy twin of class_ctor_vexing_parse.cu: the window starts at
// `offset` in every block, so thread t of every block writes one element.
struct Window {
  int *data;
  int base;
  __device__ Window(int *d, int b) : data(d), base(b) {}
  __device__ void put(int v) { data[base + threadIdx.x] = v; }
};

__global__ void fill(int *out, int offset)
{
  int start = offset;
  Window w(out, start);
  w.put(7);
}
