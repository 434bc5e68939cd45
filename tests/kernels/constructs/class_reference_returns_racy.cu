//xfail:data-race
//--blockDim=64 --gridDim=2
//
// The racy twin of class_reference_returns.cu: the element a reference
// returning function picks is shared by two threads (a[i / 2]).
template <typename T> struct SharedMemory {
  virtual __device__ T &operator[](int i) = 0;
};
template <> struct SharedMemory<float> {
  __device__ float &operator[](int i) {
    extern __shared__ float s_float[];
    return s_float[i];
  }
};

__device__ float &pick(float *a, int i) { return a[i / 2]; }

__global__ void refs(float *out) {
  SharedMemory<float> sdata;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[threadIdx.x] = (float)i;
  __syncthreads();
  pick(out, i) = sdata[63 - threadIdx.x];
}
