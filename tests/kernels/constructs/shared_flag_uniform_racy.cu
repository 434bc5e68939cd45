//xfail:barrier-divergence
//--blockDim=128 --gridDim=4
// The racy twin of shared_flag_uniform.cu: the flag is read in the interval
// where threads still set it (the barrier after the atomic is missing), so
// threads of one block may disagree on `any_negative` and only some of them
// reach the barrier inside the branch.
__global__ void shared_flag_uniform_racy(const int *in, int *out)
{
    __shared__ int any_negative;
    __shared__ int s[128];
    unsigned int tid = threadIdx.x;
    if (tid == 0) any_negative = 0;
    __syncthreads();
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    if (s[tid] < 0) atomicExch(&any_negative, 1);
    if (any_negative) {
        int v = s[tid] < 0 ? 0 : s[tid];
        __syncthreads();
        s[(tid + 1) % blockDim.x] = v;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = s[tid];
}
