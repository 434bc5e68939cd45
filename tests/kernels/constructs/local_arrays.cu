//pass
//--blockDim=64 --gridDim=4
// Thread-private local arrays: a per-thread histogram and a small sliding
// window (one zero-initialised with a loop, one with an initialiser list).
// Each thread scans its own row of the input and writes its own outputs.
#define BINS 8
#define WIN 4

__global__ void localHistogram(const unsigned char *in, int *bins, float *lastMean,
                               int perThread)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;

  int counts[BINS];
  for (int b = 0; b < BINS; ++b)
    counts[b] = 0;
  float window[WIN] = {0.0f, 0.0f, 0.0f, 0.0f};

  const unsigned char *row = in + gid * perThread;
  for (int k = 0; k < perThread; ++k) {
    unsigned char v = row[k];
    counts[v >> 5]++;
    window[k % WIN] = (float)v;
  }

  float mean = 0.0f;
  for (int w = 0; w < WIN; ++w)
    mean += window[w];
  mean /= WIN;

  for (int b = 0; b < BINS; ++b)
    bins[gid * BINS + b] = counts[b];
  lastMean[gid] = mean;
}
