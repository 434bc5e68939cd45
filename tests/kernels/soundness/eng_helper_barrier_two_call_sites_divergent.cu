//xfail:barrier-divergence
//--blockDim=4 --gridDim=1
// One helper's __syncthreads() reached through two call sites, chosen by
// threadIdx.x: the two inlined copies are two program points, so the
// threads of the block meet at different barriers (barrier divergence),
// although the barriers share one source location.
__device__ void syncThenWrite(int *o, int v)
{
    __syncthreads();
    o[threadIdx.x] = v;
}

__global__ void helperBarrierTwoCallSites(int *o)
{
    if (threadIdx.x < 2)
        syncThenWrite(o, 1);
    else
        syncThenWrite(o, 2);
}
