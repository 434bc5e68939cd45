//pass
//--blockDim=128 --gridDim=4
//
// The SharedMemory<T> idiom: a class template whose conversion to T*
// returns the block's dynamic shared memory (one extern array per element
// type, by explicit specialisation). The kernel is instantiated for two
// element types by explicit instantiation; each instantiation is checked
// on its own, the double one through the specialisation.
template <class T> struct DynShared {
  __device__ inline operator T *() {
    extern __shared__ int dyn_words[];
    return (T *)dyn_words;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int dyn_words[];
    return (T *)dyn_words;
  }
};

template <> struct DynShared<double> {
  __device__ inline operator double *() {
    extern __shared__ double dyn_doubles[];
    return (double *)dyn_doubles;
  }
};

template <class T> __global__ void blockSum(const T *in, T *out, unsigned n)
{
  T *buf = DynShared<T>();
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  buf[tid] = i < n ? in[i] : (T)0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      buf[tid] += buf[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = buf[0];
}

template __global__ void blockSum<float>(const float *, float *, unsigned);
template __global__ void blockSum<double>(const double *, double *, unsigned);
