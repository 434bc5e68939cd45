//pass
//--blockDim=128 --gridDim=2
// A struct with __device__ methods, passed by value: the method body sees
// the struct's fields by name (the implicit `this`).
struct Accumulator {
  float *out;
  float scale;

  __device__ void put(int i, float v) { out[i] = v * scale; }
  __device__ float scaled(float v) const { return v * scale; }
};

__global__ void scaleAll(Accumulator acc, const float *in)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  acc.put(i, acc.scaled(in[i]));
}
