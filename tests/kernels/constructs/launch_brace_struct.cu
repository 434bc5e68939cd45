//pass
//
// A struct built with a brace list and passed by value to a launch of
// any number of blocks: the launch gives each field of the kernel's
// parameter its initialiser (`e.width == 1024`, `e.depth == 0` past the
// list's end), so the bounds check keeps every thread on its own slot of
// the 1024-slot ring. When the width is assigned after the list
// (launch_brace_struct_racy.cu), threads x and x + 1024 meet.
struct Extent {
  unsigned long long width;
  unsigned long long height;
  unsigned long long depth;
};

__global__ void integrate(Extent e, float *out)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= e.width)
    return;
  out[x & 1023] = 1.0f;
}

void run(float *out, unsigned blocks)
{
  Extent e = {1024, 1};
  integrate<<<blocks, 32>>>(e, out);
}
