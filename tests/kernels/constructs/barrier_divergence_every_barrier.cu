//xfail:barrier-divergence
//--blockDim=128 --gridDim=2
// Several divergent barriers in one kernel, each reported with its own
// pair of threads (seed 001 §5.2: P_i(t1) != P_i(t2) per barrier): both
// arms of a branch on the thread id, a barrier reached by one thread only,
// and a loop whose trip count depends on the thread. The barrier under the
// uniform condition `n > 3` is not divergent.

__global__ void everyBarrier(int *out, int n) {
    __shared__ int tile[128];
    unsigned t = threadIdx.x;
    tile[t] = n;
    if (t < 64) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    if (n > 3) {
        __syncthreads();
    }
    if (t == 5) {
        tile[t] = 0;
        __syncthreads();
    }
    for (unsigned i = 0; i < t % 4; i++) {
        tile[t] += i;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = tile[t];
}
