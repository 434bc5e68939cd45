//pass
//--blockDim=32 --gridDim=1
// A reference variable bound to a method returning a `const` reference
// refers to the object itself: read after the barrier, it sees the value
// the thread stored into its own cell after binding it (a copy taken at
// the call would see the old one).
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
