//pass
//--blockDim=64 --gridDim=1
// Seed 002, Table 1 test 5 (read-index, Figure 6), DRF version: each thread
// stores its own id as its index, so the writes a[idx[t]] are distinct. An
// analysis that abstracts array contents away (protocols) cannot see this
// and reports a possible race.
__global__ void readIndex(int *a)
{
  __shared__ int idx[64];
  unsigned tid = threadIdx.x;
  idx[tid] = tid;
  __syncthreads();
  int x = idx[tid];
  a[x] = 1;
}
