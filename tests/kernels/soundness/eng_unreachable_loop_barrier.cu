//pass
//--blockDim=4 --gridDim=1
// A barrier in a loop under a branch on the thread: thread 0 reaches the
// loop but runs none of its tid iterations, so no thread reaches the
// barrier and it is not divergent.
__global__ void unreachableLoopBarrier(int *o)
{
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        for (unsigned i = 0; i < tid; i++)
            __syncthreads();
    }
    o[tid] = 1;
}
