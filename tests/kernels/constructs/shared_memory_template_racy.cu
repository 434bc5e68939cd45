//xfail:DATA_RACE
//--blockDim=128 --gridDim=4
//
// The SharedMemory<T> idiom as in shared_memory_template.cu, with the
// barrier inside the reduction loop missing: a thread reads a slot its
// partner writes in the previous step.
template <class T> struct DynShared {
  __device__ inline operator T *() {
    extern __shared__ int dyn_words[];
    return (T *)dyn_words;
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
  }
  if (tid == 0)
    out[blockIdx.x] = buf[0];
}

template __global__ void blockSum<float>(const float *, float *, unsigned);
