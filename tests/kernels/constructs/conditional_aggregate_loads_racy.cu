//xfail:data-race
//--blockDim=8 --gridDim=1
//
// The racy twin of conditional_aggregate_loads.cu: the active threads
// read the upper half of `in`, which the inactive ones write.
__global__ void gather(float2 *in, float2 *out)
{
  bool active = threadIdx.x < 4;
  float2 p = active ? in[threadIdx.x + 4] : make_float2(0.0f, 0.0f);
  if (!active)
    in[threadIdx.x] = make_float2(1.0f, 2.0f);
  out[threadIdx.x] = p;
}
