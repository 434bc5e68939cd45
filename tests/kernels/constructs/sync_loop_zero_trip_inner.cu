//pass
//--blockDim=128 --gridDim=2
// A synchronized loop inside another whose first trip runs it zero times
// (`j < r` with `r == 0`). Each round writes its own slot before the inner
// loop and reads a neighbour's after the inner barrier; the next round's
// barrier comes before the next write. The write of a round that runs the
// inner loop zero times meets the next round's head, never a read of an
// inner iteration: that needs the inner loop to run in the same round.

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
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
