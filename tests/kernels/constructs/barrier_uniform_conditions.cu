//pass
//--blockDim=128 --gridDim=4
// Barriers under conditions and in loops that are the same for every
// thread of a block: parameters, block ids and dimensions. None is
// divergent, and the barriers separate the shared-memory accesses.

__global__ void uniformBarriers(int *out, int n) {
    __shared__ int tile[128];
    unsigned t = threadIdx.x;
    tile[t] = n;
    if (n > 3 && blockIdx.x % 2 == 0) {
        __syncthreads();
        out[blockIdx.x * blockDim.x + t] = tile[(t + 1) % blockDim.x];
        __syncthreads();
    }
    for (int i = 0; i < n; i++) {
        tile[t] = i;
        __syncthreads();
        out[blockIdx.x * blockDim.x + t] += tile[blockDim.x - 1 - t];
        __syncthreads();
    }
}
