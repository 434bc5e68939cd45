//xfail:data-race
//--blockDim=64 --gridDim=2
//
// The racy twin of lambda_by_reference.cu: the lambda reads a neighbour's
// element of the tile with no barrier after the writes.
__global__ void stage(const float *in, float *out) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto load = [&](unsigned j) -> float { return tile[j % 64]; };
  tile[threadIdx.x] = in[i];
  out[i] = load(threadIdx.x + 1);
}
