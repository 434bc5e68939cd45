//xfail:data-race
//
// The twin of launch_brace_struct.cu whose extent is assigned a runtime
// width after its brace list: the initialiser no longer holds at the
// launch, nothing is assumed of `e.width`, and threads x and x + 1024
// meet.
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

void run(float *out, unsigned blocks, unsigned n)
{
  Extent e = {1024, 1};
  e.width = n;
  integrate<<<blocks, 32>>>(e, out);
}
