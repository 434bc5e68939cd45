//xfail:data-race
//--blockDim=2 --gridDim=1
// Races repair leaves alone, with the reason: a store written through a
// macro, and one in an inlined __device__ helper (rewriting the helper
// would change every caller).
#define PUBLISH(p, v) p[0] = v

__device__ void note(int *log, int v)
{
  log[0] = v;
}

__global__ void k(int *out, int *log)
{
  PUBLISH(out, threadIdx.x);
  note(log, threadIdx.x);
}
