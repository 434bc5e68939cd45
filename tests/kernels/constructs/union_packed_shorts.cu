//pass
//--blockDim=64 --gridDim=4
// A union of two shorts and a word (as DCT code packs pixel pairs): each
// thread unpacks its own word through a local union, swaps the halves and
// packs it again; a shared array of unions is written and read by its own
// thread only.
union Packed {
  struct {
    short lo;
    short hi;
  };
  unsigned int word;
};

__global__ void swapHalves(unsigned int *v)
{
  __shared__ Packed s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Packed p;
  p.word = v[i];
  short lo = p.lo;
  p.lo = p.hi;
  p.hi = lo;
  s[threadIdx.x] = p;
  v[i] = s[threadIdx.x].word;
}
