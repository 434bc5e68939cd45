//xfail:data-race
//--blockDim=128 --gridDim=2
// The racy twin of sync_loop_zero_trip_inner.cu: the neighbour's slot is
// also read after the inner loop. In round 0 the inner loop runs zero
// times, so that read meets the neighbour's write with no barrier between.

__global__ void zeroTripInner(int *out, unsigned rounds) {
    __shared__ int slot[128];
    unsigned t = threadIdx.x;
    int acc = 0;
    for (unsigned r = 0; r < rounds; r++) {
        __syncthreads();
        slot[t] = (int)r;
        for (unsigned j = 0; j < r; j++) {
            __syncthreads();
            acc += slot[(t + 1) % blockDim.x];
        }
        acc += slot[(t + 1) % blockDim.x];
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
