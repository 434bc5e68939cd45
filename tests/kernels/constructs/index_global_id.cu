//pass
//
// Global thread indices as real kernels compute them, over any launch
// (no dims given): `int i = blockIdx.x * blockDim.x + threadIdx.x` (the
// unsigned sum converted to int) in either operand order, and a 2-D index
// `row * WIDTH + col` in signed arithmetic. Each names one element per
// thread when the grid has at most 2^32 threads along x (check's default
// launch assumption; with --huge-grids two threads 2^32 apart share an
// index) and signed arithmetic does not overflow (undefined behaviour).

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

__global__ void scale(int n, float *v) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    v[i] = 2.0f * v[i];
  }
}

#define WIDTH 1024

__global__ void add2d(int height, const float *a, float *b) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < WIDTH && row < height) {
    b[row * WIDTH + col] += a[row * WIDTH + col];
  }
}
