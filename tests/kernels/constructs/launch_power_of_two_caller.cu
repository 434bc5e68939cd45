//pass
//
// The merge step's stride is a parameter of the host function that
// launches it, and that function's only caller passes the counter of a
// `stride <<= 1` loop: every stride is a power of two (or zero, once
// shifted out), so `lo = pos & (stride - 1)` is the position within the
// first half and each thread owns the slots `2 * (pos - lo) + lo` and
// that plus stride. With a stride of 3 (the racy twin) threads 1 and 2
// both touch slot 2.
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
  for (unsigned stride = 1; stride < n; stride <<= 1)
    step(data, stride, n);
}
