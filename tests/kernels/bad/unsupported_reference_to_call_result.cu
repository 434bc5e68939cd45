//xfail:front-end
//--blockDim=32 --gridDim=1
// A method returning a `const` reference is modelled as a value read where
// it is called. A reference variable bound to its result would read the
// object later (here after the barrier, when the neighbour has written
// it), so it is refused with a message that says what to write instead.
template <class T> struct Cell {
  T v;
  __device__ const T &get() const { return v; }
};

__global__ void shift(Cell<int> *cells, int *out)
{
  __shared__ Cell<int> s[32];
  const int &mine = s[threadIdx.x].get();
  s[threadIdx.x] = cells[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = mine;
}
