//xfail:data-race
//--blockDim=128 --gridDim=8
// The unrolled window writes its result back into the input, which the
// neighbouring threads read.
#define RADIUS 4

template <int i> __device__ float sum(const float *in, int x)
{
  return in[x + i] + sum<i - 1>(in, x);
}

template <> __device__ float sum<-1>(const float *in, int x) { return 0.0f; }

__global__ void window(float *in, int n)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x + RADIUS < n) {
    in[x] = sum<RADIUS>(in, x);
  }
}
