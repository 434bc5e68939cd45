//pass
//--blockDim=64 --gridDim=2
// A loop of unknown trip count left when a flag in shared memory says so:
// one thread sets the flag, a barrier publishes it, and every thread of the
// block reads it in an interval where nobody writes it, so the whole block
// leaves together and the barriers inside align. The sweep counter is
// carried alike by every thread.
__global__ void loop_until_shared_flag(const int *in, int *out, int limit)
{
    __shared__ int done;
    __shared__ int s[64];
    unsigned int tid = threadIdx.x;
    unsigned int sweeps = 0;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    while (true) {
        if (tid == 0) done = (s[0] >= limit) || (sweeps >= 8);
        __syncthreads();
        if (done) break;
        int v = s[tid] + s[(tid + 1) % blockDim.x];
        __syncthreads();
        s[tid] = v;
        sweeps = sweeps + 1;
    }
    out[blockIdx.x * blockDim.x + tid] = s[tid];
}
