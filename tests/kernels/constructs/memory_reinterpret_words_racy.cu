//xfail:data-race
//--blockDim=64 --gridDim=2
// The byte counters without the barrier: thread t reads word t, bytes
// 4t..4t+3, which thread t/2 clears as part of its own two words.
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
  unsigned int w = words[threadIdx.x];
  sums[blockIdx.x * THREADS + threadIdx.x] =
      (w & 0xff) + ((w >> 8) & 0xff) + ((w >> 16) & 0xff) + (w >> 24);
}
