//pass
//--blockDim=4 --gridDim=1
// The race-free twin of eng_distinct_barriers_divergent.cu: every thread
// meets the others at the same barriers, iteration by iteration of a
// loop with a uniform trip count, and through one helper call site.
__device__ void syncThenWrite(int *o, int v)
{
    __syncthreads();
    o[threadIdx.x] = v;
}

__global__ void sameBarrierInLoop(int *o)
{
    __shared__ int s[4];
    for (int i = 0; i < 2; i++) {
        s[threadIdx.x] = i;
        __syncthreads();
        o[threadIdx.x] = s[(threadIdx.x + 1) % 4];
        __syncthreads();
    }
    syncThenWrite(o, 3);
}
