//pass
//--blockDim=2 --gridDim=2
// The race-free twin of eng_helper_races_two_arrays.cu: one helper's
// store to a global slot per thread of the grid and a shared slot per
// thread of the block.
__device__ void put(int *p, int v) { *p = v; }

__global__ void helperTwoArrays(int *g)
{
    __shared__ int s[64];
    put(&g[blockIdx.x * blockDim.x + threadIdx.x], 1);
    put(&s[threadIdx.x], 2);
}
