//xfail:data-race
//
// The twin of launch_branch_constants.cu: the first branch launches
// `tiles<128>` with 256 threads per block, so the second half of block 0
// writes the elements of block 1 (and reads past its tile). Taking the
// second branch's `BM = 64` for both launches would check `tiles<64>`
// alone and miss it.
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
    tiles<BM><<<n / BM, 2 * BM>>>(out);
  } else {
    const unsigned BM = 64;
    tiles<BM><<<n / BM, BM>>>(out);
  }
}
