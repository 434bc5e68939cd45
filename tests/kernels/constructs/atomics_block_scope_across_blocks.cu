//xfail:heterogeneous-race
//--blockDim=64 --gridDim=4
// atomicAdd_block is atomic only among the threads of one block, yet every
// block updates the same global counter: threads of different blocks race
// through block-scoped atomics.
__global__ void countPositives(const float *in, int *globalCount)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd_block(globalCount, in[gid] > 0.0f ? 1 : 0);
}
