//xfail:data-race
//--blockDim=256
// The racy twin of loops_grid_stride_size_t.cu: the loops step by the
// block size only, so with several blocks, thread t of block b+1 writes in
// its first iteration what thread t of block b writes in its second.
// Like its twin, the corpus runs it with 256-thread blocks.
#include <cstddef>

__global__ void axpy(float a, const float *x, float *y, size_t n)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

__global__ void copy_words(int *dst, const int *src, size_t bytes)
{
  int stride = blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < bytes / sizeof(int);
       i += stride) {
    dst[i] = src[i];
  }
}
