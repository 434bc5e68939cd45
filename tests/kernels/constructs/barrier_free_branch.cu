//pass
//--blockDim=128 --gridDim=2
// A uniform conditional with a barrier in one branch only. The code before
// it and the code after it meet in one phase only when the condition is
// false, and the read after it runs only when the condition is true: the
// barrier always separates them.

__global__ void barrierFreeBranch(int *out, int n) {
    __shared__ int slot[128];
    unsigned t = threadIdx.x;
    slot[t] = n;
    if (n > 0) {
        __syncthreads();
    }
    if (n > 0) {
        out[blockIdx.x * blockDim.x + t] = slot[blockDim.x - 1 - t];
    }
}
