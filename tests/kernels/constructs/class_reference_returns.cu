//pass
//--blockDim=64 --gridDim=2
//
// Functions returning references are places: cuda-samples' SharedMemory<T>
// object whose operator[] returns an element of the block's extern shared
// array, a small vector class's at(i), a free function picking an element
// of a pointer, and a const reference bound to an accessor's result (it
// stays bound to the field, not to a copy).
template <typename T> struct SharedMemory {
  virtual __device__ T &operator[](int i) = 0;
};
template <> struct SharedMemory<float> {
  __device__ float &operator[](int i) {
    extern __shared__ float s_float[];
    return s_float[i];
  }
};

struct Pair {
  float v[2];
  __device__ float &at(int i) { return v[i]; }
  __device__ const float &first() const { return v[0]; }
};

__device__ float &pick(float *a, int i) { return a[2 * i + 1]; }

__global__ void refs(float *out) {
  SharedMemory<float> sdata;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[threadIdx.x] = (float)i;
  __syncthreads();
  Pair p;
  p.at(0) = sdata[(threadIdx.x + 1) % 64];
  const float &f = p.first();
  p.at(0) += 1.0f;
  p.at(1) = f;
  pick(out, i) = p.at(1);
}
