//xfail:data-race
//--blockDim=4 --gridDim=1
// The unreachable barrier of eng_unreachable_barrier.cu orders nothing:
// thread 0 writes o[0] before it, the other threads write o[0] in the
// other branch, a race the barrier must not hide.
__global__ void unreachableBarrierRacy(int *o)
{
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        o[0] = 1;
        if (tid == 1)
            __syncthreads();
    } else {
        o[0] = 2;
    }
}
