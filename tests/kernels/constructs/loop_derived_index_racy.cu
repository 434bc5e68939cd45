//xfail:data-race
//--blockDim=4 --gridDim=1
//
// The racy twin of loop_derived_index.cu: the index steps by 3, so thread
// 3's first slot is thread 0's second.
#define N 4
__global__ void stage_rows(const float *in, float *out)
{
  __shared__ float stage[N * N];
  unsigned int idx = threadIdx.x;
  for (int k = 0; k < N; k++) {
    stage[idx] = in[k * N + threadIdx.x];
    idx += N - 1;
  }
  __syncthreads();
  out[threadIdx.x] = stage[threadIdx.x];
}
