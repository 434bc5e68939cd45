//pass
//--blockDim=64 --gridDim=1
// Operators defined for vector and struct types (as cuda-samples'
// helper_math.h does) are calls of the user's functions: `+`, `*` and
// `+=` on float4, and `+` on a struct that carries an index.
inline __device__ float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
inline __device__ float4 operator*(float4 a, float s) {
  return make_float4(a.x * s, a.y * s, a.z * s, a.w * s);
}
inline __device__ void operator+=(float4 &a, float4 b) {
  a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
struct Idx { unsigned v; };
inline __device__ Idx operator+(Idx a, unsigned b) { Idx r; r.v = a.v + b; return r; }

__global__ void k(float4 *out, const float4 *in) {
  unsigned t = threadIdx.x;
  float4 v = in[t] + in[t + 64];
  v += v * 2.0f;
  Idx i;
  i.v = t;
  Idx j = i + 64u;
  out[j.v] = v;
}
