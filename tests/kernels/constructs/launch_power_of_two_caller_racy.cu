//xfail:data-race
//
// The twin of launch_power_of_two_caller.cu whose caller steps the
// stride by 2: 1, 3, 5, ... are not powers of two, and with a stride of 3
// threads 1 and 2 of block 0 both touch slot 2.
__global__ void mergeStep(int *data, unsigned stride)
{
  unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lo = pos & (stride - 1);
  unsigned base = 2 * (pos - lo);
  data[base + lo] += data[base + lo + stride];
}

static void step(int *data, unsigned stride, unsigned n)
{
  mergeStep<<<n / 512, 256>>>(data, stride);
}

void mergeAll(int *data, unsigned n)
{
  for (unsigned stride = 1; stride < n; stride += 2)
    step(data, stride, n);
}
