//pass
//--blockDim=64 --gridDim=4 --volatile=atomic
// A volatile flag spin and the three thread fences. Inside each block thread 0
// fills buf, issues __threadfence_block() and raises the volatile flag; the
// threads of warp 1 spin on the flag, fence, then read buf. Volatile accesses
// are relaxed system-scope (morally strong) operations, so the flag does not
// race, and the fence pair orders the payload. After the barrier thread 0
// publishes the block total with __threadfence() and __threadfence_system()
// before bumping a completion counter atomically.
__global__ void handOff(const float *in, float *out, float *partial,
                        float *hostVisible, unsigned *blocksDone)
{
  __shared__ float buf[32];
  __shared__ volatile int ready;
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;

  if (tid == 0)
    ready = 0;
  __syncthreads();

  if (tid == 0) {
    for (int i = 0; i < 32; ++i)
      buf[i] = in[blockIdx.x * blockDim.x + i] * 2.0f;
    __threadfence_block();
    ready = 1;
  } else if (tid >= 32) {
    while (ready == 0) {
    }
    __threadfence_block();
    out[gid] = buf[tid - 32];
  }
  __syncthreads();

  if (tid == 0) {
    float sum = 0.0f;
    for (int i = 0; i < 32; ++i)
      sum += buf[i];
    partial[blockIdx.x] = sum;
    __threadfence();
    hostVisible[blockIdx.x] = sum;
    __threadfence_system();
    atomicAdd(blocksDone, 1u);
  }
}
