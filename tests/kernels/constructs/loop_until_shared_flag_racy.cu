//xfail:barrier-divergence
//--blockDim=64 --gridDim=2
// The racy twin of loop_until_shared_flag.cu: each thread decides from its
// own element whether to leave, so threads of one block leave the loop at
// different iterations and the others wait at its barriers forever.
__global__ void loop_until_shared_flag_racy(const int *in, int *out, int limit)
{
    __shared__ int s[64];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    while (true) {
        __syncthreads();
        if (s[tid] >= limit) break;
        int v = s[tid] + s[(tid + 1) % blockDim.x];
        __syncthreads();
        s[tid] = v;
    }
    out[blockIdx.x * blockDim.x + tid] = s[tid];
}
