//xfail:barrier-divergence
//--blockDim=64 --gridDim=2
// The racy twin of loop_early_exit_syncthreads_or.cu: each thread leaves
// as soon as its own value stops changing, while its neighbours may still
// wait at the loop's barriers.
__global__ void loop_early_exit_syncthreads_or_racy(int *x, int max_iter)
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
        __syncthreads();
        if (!changed) break;
    }
    x[blockIdx.x * blockDim.x + tid] = s[tid];
}
