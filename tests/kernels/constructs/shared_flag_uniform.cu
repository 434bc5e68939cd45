//pass
//--blockDim=128 --gridDim=4
// A flag in shared memory, set during one barrier interval and read in the
// next, where no thread writes it: every thread of the block reads the same
// value, so the barrier under `if (any_negative)` is not divergent.
__global__ void shared_flag_uniform(const int *in, int *out)
{
    __shared__ int any_negative;
    __shared__ int s[128];
    unsigned int tid = threadIdx.x;
    if (tid == 0) any_negative = 0;
    __syncthreads();
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    if (s[tid] < 0) atomicExch(&any_negative, 1);
    __syncthreads();
    if (any_negative) {
        // The whole block clamps and rotates together.
        int v = s[tid] < 0 ? 0 : s[tid];
        __syncthreads();
        s[(tid + 1) % blockDim.x] = v;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = s[tid];
    __syncthreads();
    // Read again, after the flag's last write: still one value per block.
    if (tid == 0 && any_negative) out[blockIdx.x * blockDim.x] = 0;
}
