//pass
//
// Each branch of the host's `if` declares its own `const unsigned BM`:
// 128 in the first, 64 in the second. Each launch reads the constant of
// its own branch, so the kernel is checked as `tiles<128>` with 128-thread
// blocks and as `tiles<64>` with 64-thread blocks, and each block writes
// its own `BM` elements. In launch_branch_constants_racy.cu the first
// branch launches 256 threads per block, twice its tile.
template <int BM>
__global__ void tiles(float *out)
{
  __shared__ float t[BM];
  t[threadIdx.x] = 1.0f;
  __syncthreads();
  out[blockIdx.x * BM + threadIdx.x] = t[BM - 1 - threadIdx.x];
}

void run(float *out, int n)
{
  if (n >= 128) {
    const unsigned BM = 128;
    tiles<BM><<<n / BM, BM>>>(out);
  } else {
    const unsigned BM = 64;
    tiles<BM><<<n / BM, BM>>>(out);
  }
}
