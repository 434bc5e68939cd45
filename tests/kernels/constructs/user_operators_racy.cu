//xfail:data-race
//--blockDim=64 --gridDim=1
// The user's `operator+` on the index struct ignores its left operand:
// every thread writes out[64].
struct Idx { unsigned v; };
inline __device__ Idx operator+(Idx a, unsigned b) { Idx r; r.v = b; return r; }
__global__ void k(float *out) {
  Idx i;
  i.v = threadIdx.x;
  Idx j = i + 64u;
  out[j.v] = 1.0f;
}
