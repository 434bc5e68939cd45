// A block-wide sum reduction in shared memory, as a GPU programmer writes it:
// each block loads 256 elements, halves the active threads at every level,
// and thread 0 writes the block's partial sum.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockSum(const float *in, float *partial, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * blockDim.x + tid;

    sdata[tid] = gid < n ? in[gid] : 0.0f;
    __syncthreads();

    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

int main()
{
    const int n = 1 << 20;
    float *in, *partial;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&partial, (n / BLOCK) * sizeof(float));
    blockSum<<<n / BLOCK, BLOCK>>>(in, partial, n);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(partial);
    return 0;
}
