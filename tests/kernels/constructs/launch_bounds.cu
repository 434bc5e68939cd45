//pass
//
// `__launch_bounds__(256)`: the kernel is never launched with more than 256
// threads per block (such a launch fails), so threads t and t + 256 of one
// block, which would both write `s[t % 256]`, do not exist. check uses the
// bound for a block left symbolic and says so on its `launch:` line.

__global__ void __launch_bounds__(256, 2) stage(const int *in, int *out) {
  __shared__ int s[256];
  s[threadIdx.x % 256u] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[255u - threadIdx.x % 256u];
}
