//xfail:data-race
//--blockDim=2 --gridDim=2
// Two races through one helper's store (one pair of source locations):
// on the global `g` between blocks and on the shared `s` within a block.
// Both must be reported (check once reported only the first).
__device__ void put(int *p, int v) { *p = v; }

__global__ void helperRacesTwoArrays(int *g)
{
    __shared__ int s[64];
    put(&g[threadIdx.x], 1);
    put(&s[0], 2);
}
