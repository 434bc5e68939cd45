//pass
//
// A merge network launches one kernel per step: the step's `size` doubles
// and its `stride` halves from `size / 2`, so neither holds its
// initialiser at the launch, but each only ever holds a power of two (or
// 0 once shifted out). With that, `pos = 2 * g - (g & (stride - 1))`
// gives each thread its own pair of slots, `stride` apart; a stride of 3
// would not (see launch_merge_steps_racy.cu).
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
    for (uint stride = size / 2; stride > 0; stride >>= 1)
      mergeStep<<<length / 512, 256>>>(d, size, stride);
}
