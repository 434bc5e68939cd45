//pass
//--blockDim=64 --gridDim=2
//
// Lambdas bound to local names and called through them, capturing by
// reference: `load` reads the block's staged tile, `pick` chooses one of
// four values by a switch (as cuda-samples' shfl_scan does to keep a
// packed result in registers). Each call is the body inlined where it is.
__global__ void stage(const float *in, float *out) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 r = make_float4(in[i], 1.0f, 2.0f, 3.0f);
  auto load = [&](unsigned j) -> float { return tile[j % 64]; };
  auto pick = [&r](unsigned k) -> float {
    switch (k) {
    case 0:
      return r.x;
    case 1:
      return r.y;
    case 2:
      return r.z;
    }
    return r.w;
  };
  tile[threadIdx.x] = pick(threadIdx.x & 3);
  __syncthreads();
  out[i] = load(threadIdx.x + 1) + pick(0);
}
