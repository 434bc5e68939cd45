//xfail:data-race
//--blockDim=128 --gridDim=2
// The racy twin of barrier_free_branch.cu: the read after the conditional
// runs whatever `n` is, so with `n <= 0` it meets the write before it with
// no barrier between.

__global__ void barrierFreeBranch(int *out, int n) {
    __shared__ int slot[128];
    unsigned t = threadIdx.x;
    slot[t] = n;
    if (n > 0) {
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = slot[blockDim.x - 1 - t];
}
