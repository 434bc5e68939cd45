//pass
//--blockDim=4 --gridDim=1
// A barrier under a condition on the thread that no thread satisfies
// (tid == 0 and tid == 1): reached by no thread, so not divergent, and
// the kernel gets its race check (each thread writes its own slot).
__global__ void unreachableBarrier(int *o)
{
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        if (tid == 1)
            __syncthreads();
    }
    o[tid] = 1;
}
