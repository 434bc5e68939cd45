//pass
//
// A whole program: host code allocates device buffers with cudaMalloc, copies
// the inputs with cudaMemcpy, launches with dim3 grid(4) / dim3 block(128),
// copies the per-block partial dot products back and frees everything. The
// launch configuration comes from the host code, so the flags line is empty.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void dotPartial(const float *a, const float *b, float *partial)
{
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  s[tid] = a[gid] * b[gid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = s[0];
}

int main()
{
  const int n = 4 * 128;
  float *hA = (float *)malloc(n * sizeof(float));
  float *hB = (float *)malloc(n * sizeof(float));
  float hPartial[4];
  for (int i = 0; i < n; ++i) {
    hA[i] = 1.0f;
    hB[i] = (float)i;
  }

  float *dA, *dB, *dPartial;
  cudaMalloc((void **)&dA, n * sizeof(float));
  cudaMalloc((void **)&dB, n * sizeof(float));
  cudaMalloc((void **)&dPartial, 4 * sizeof(float));
  cudaMemcpy(dA, hA, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hB, n * sizeof(float), cudaMemcpyHostToDevice);

  dim3 grid(4);
  dim3 block(128);
  dotPartial<<<grid, block>>>(dA, dB, dPartial);
  cudaMemcpy(hPartial, dPartial, 4 * sizeof(float), cudaMemcpyDeviceToHost);

  float dot = hPartial[0] + hPartial[1] + hPartial[2] + hPartial[3];
  printf("dot = %f\n", dot);

  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dPartial);
  free(hA);
  free(hB);
  return 0;
}
