//xfail:barrier-divergence
//--blockDim=4 --gridDim=1
// The divergent twin of eng_unreachable_barrier_launch.cu: blockDim.x > 2
// holds, so thread 0 reaches the barrier while threads 1-3 do not.
__global__ void reachableBarrierDivergent(int *o)
{
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        if (blockDim.x > 2)
            __syncthreads();
    }
    o[tid] = 1;
}
