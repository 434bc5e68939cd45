// Matrix transpose through a shared-memory tile, as in the CUDA samples:
// each block loads a 32x32 tile (padded against bank conflicts), waits at a
// barrier, and writes the tile back transposed.
#include <cuda_runtime.h>

#define N 1024
#define TILE 32

__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * N + x];

    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, N * N * sizeof(float));
    cudaMalloc(&out, N * N * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(N / TILE, N / TILE);
    transpose<<<grid, block>>>(out, in);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
