//xfail:data-race
//
// The block is `dim3 threads(side, side)` with a runtime `side`: square,
// of any size. Rows of the block write the same shared element, a race as
// soon as the block has a second row. (The declaration parses as a
// function declaration; reading it as a one-dimensional block, blockDim.y
// = 1, would call this kernel race-free.)
__global__ void rows(float *out)
{
  __shared__ float s[1024];
  s[threadIdx.x] = threadIdx.y;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

int run(int side)
{
  float *d = 0;
  dim3 threads(side, side);
  rows<<<1, threads>>>(d);
  return 0;
}
