//pass
//--blockDim=8 --gridDim=1
//
// A conditional whose arms are aggregates, one of them read from memory:
// the read runs only on its branch, so inactive threads read nothing (the
// upper half of `in` is written by other threads meanwhile).
__global__ void gather(float2 *in, float2 *out)
{
  bool active = threadIdx.x < 4;
  float2 p = active ? in[threadIdx.x] : make_float2(0.0f, 0.0f);
  if (!active)
    in[threadIdx.x] = make_float2(1.0f, 2.0f);
  out[threadIdx.x] = p;
}
