//pass
//--blockDim=64 --gridDim=2
// A relaxation loop with barriers, left early once no thread of the block
// changed its value: __syncthreads_or gives every thread the same answer,
// so the block leaves the counting loop together.
__global__ void loop_early_exit_syncthreads_or(int *x, int max_iter)
{
    __shared__ int s[64];
    unsigned int tid = threadIdx.x;
    s[tid] = x[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (int it = 0; it < max_iter; it++) {
        int left = s[(tid + blockDim.x - 1) % blockDim.x];
        int v = left > s[tid] ? left : s[tid];
        int changed = v != s[tid];
        __syncthreads();
        s[tid] = v;
        if (!__syncthreads_or(changed)) break;
    }
    x[blockIdx.x * blockDim.x + tid] = s[tid];
}
