//pass
//--blockDim=128 --gridDim=4
// Dynamically sized shared memory: extern __shared__ float buf[] carved into
// two blockDim.x-long regions (values and weights) through pointer offsets,
// then a weighted three-point average over the ring of neighbours.
__global__ void weightedNeighbours(const float *vals, const float *wts, float *out)
{
  extern __shared__ float buf[];
  float *sVal = buf;
  float *sWt = buf + blockDim.x;

  unsigned n = blockDim.x;
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * n + tid;

  sVal[tid] = vals[gid];
  sWt[tid] = wts[gid];
  __syncthreads();

  unsigned left = (tid + n - 1) % n;
  unsigned right = (tid + 1) % n;
  float num = sVal[left] * sWt[left] + sVal[tid] * sWt[tid] + sVal[right] * sWt[right];
  float den = sWt[left] + sWt[tid] + sWt[right];
  out[gid] = den != 0.0f ? num / den : 0.0f;
}
