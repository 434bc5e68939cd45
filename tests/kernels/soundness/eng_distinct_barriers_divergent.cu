//xfail:barrier-divergence
//--blockDim=4 --gridDim=1
// An if/else on threadIdx.x with a __syncthreads() in each branch: the
// threads of the block meet at two textually different barriers, which
// is barrier divergence in CUDA even though every thread passes one
// barrier (explore once matched barriers by count and said SAFE).
__global__ void distinctBarriers(int *o)
{
    __shared__ int s[4];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 2) {
        __syncthreads();
        o[threadIdx.x] = s[threadIdx.x];
    } else {
        __syncthreads();
        o[threadIdx.x] = s[threadIdx.x];
    }
}
