//pass
//--blockDim=256 --gridDim=8
//
// Kernels launched from a host function template: `scale<T, W><<<...>>>`
// inside `template <class T> void run(...)` launches scale<int, 2> and
// scale<float, 2> because the file instantiates run<int> explicitly and
// calls run<float>; a local constant of the host function (`width`) is
// folded into the template argument.
template <class T, int W> __global__ void scale(T *data, int n)
{
  __shared__ T tile[256 * W];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < W; k++)
    tile[threadIdx.x * W + k] = i < n ? data[i] : (T)0;
  __syncthreads();
  if (i < n)
    data[i] = tile[((threadIdx.x + 1) % blockDim.x) * W];
}

template <class T> void run(T *d, int n)
{
  constexpr int width = 2;
  scale<T, width><<<(n + 255) / 256, 256>>>(d, n);
}

template void run<int>(int *, int);

void runFloat(float *d, int n) { run<float>(d, n); }
