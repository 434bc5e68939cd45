//xfail:data-race
//
// The twin of launch_merge_steps.cu whose stride steps down by one: it
// takes every value below `size / 2`, and with a stride of 3 threads 1
// and 2 both write slot 2.
typedef unsigned int uint;

__global__ void mergeStep(uint *d, uint size, uint stride)
{
  uint g = blockIdx.x * blockDim.x + threadIdx.x;
  uint pos = 2 * g - (g & (stride - 1));
  uint a = d[pos];
  uint b = d[pos + stride];
  if ((g & (size / 2)) != 0) {
    d[pos] = b;
    d[pos + stride] = a;
  }
}

void merge(uint *d, uint length)
{
  for (uint size = 2048; size <= length; size <<= 1)
    for (uint stride = size / 2; stride > 0; stride -= 1)
      mergeStep<<<length / 512, 256>>>(d, size, stride);
}
