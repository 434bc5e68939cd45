//pass
//--kernel=saxpy
// A whole program whose launches are written kernel<<<N / 256, 256>>> with N a
// #define, so the configuration (16 blocks of 256 threads) is constant after
// macro expansion. Two kernels are launched; --kernel selects saxpy.
#include <cstdio>
#include <cuda_runtime.h>

#define N 4096
#define THREADS 256

__global__ void fill(float *v, float value)
{
  v[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

__global__ void saxpy(float a, const float *x, float *y)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i];
}

int main()
{
  float *x, *y;
  cudaMalloc(&x, N * sizeof(float));
  cudaMalloc(&y, N * sizeof(float));

  fill<<<N / THREADS, THREADS>>>(x, 1.0f);
  fill<<<N / THREADS, THREADS>>>(y, 2.0f);
  saxpy<<<N / 256, 256>>>(3.0f, x, y);

  float result[N];
  cudaMemcpy(result, y, N * sizeof(float), cudaMemcpyDeviceToHost);
  printf("y[0] = %f (expected 5)\n", result[0]);

  cudaFree(x);
  cudaFree(y);
  return 0;
}
