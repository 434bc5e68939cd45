//xfail:data-race
//--blockDim=64 --gridDim=4
// The high half of a shared union is written by the next thread: thread t
// writes s[t].lo and s[t + 1].hi, which overlaps the word thread t + 1
// reads back.
union Packed {
  struct {
    short lo;
    short hi;
  };
  unsigned int word;
};

__global__ void swapHalves(unsigned int *v)
{
  __shared__ Packed s[65];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x].lo = (short)v[i];
  s[threadIdx.x + 1].hi = (short)(v[i] >> 16);
  v[i] = s[threadIdx.x].word;
}
