//pass
//--blockDim=64 --gridDim=2
// Shared memory used at another element size: each thread owns eight byte
// counters of a `uchar` array, cleared two 32-bit words at a time through
// an `unsigned int *`; after the barrier each thread reads one word (four
// counters of another thread). Every word access is four byte accesses.
#define THREADS 64
#define PER_THREAD 8

__global__ void byteCounters(const unsigned char *keys, unsigned int *sums)
{
  __shared__ unsigned char counters[THREADS * PER_THREAD];
  unsigned int *words = (unsigned int *)counters;
  for (int i = 0; i < PER_THREAD / 4; i++)
    words[threadIdx.x * (PER_THREAD / 4) + i] = 0;
  unsigned char *mine = counters + threadIdx.x * PER_THREAD;
  unsigned char k = keys[blockIdx.x * THREADS + threadIdx.x];
  mine[k % PER_THREAD] += 1;
  __syncthreads();
  unsigned int w = words[threadIdx.x];
  sums[blockIdx.x * THREADS + threadIdx.x] =
      (w & 0xff) + ((w >> 8) & 0xff) + ((w >> 16) & 0xff) + (w >> 24);
}
