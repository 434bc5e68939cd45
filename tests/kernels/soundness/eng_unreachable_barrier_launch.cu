//pass
//--blockDim=4 --gridDim=1
// A barrier under a launch condition (blockDim.x > 8) inside a branch on
// the thread: the launch of 4 threads per block makes it unreachable for
// every thread, so it is not divergent.
__global__ void launchUnreachableBarrier(int *o)
{
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        if (blockDim.x > 8)
            __syncthreads();
    }
    o[tid] = 1;
}
