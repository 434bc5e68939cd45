//pass
//--blockDim=256 --gridDim=4
// __constant__ and __device__ globals: scalars and arrays with initialisers
// read by every thread, plus a __device__ array written at one slot per thread
// (256 threads x 4 blocks = 1024 slots).
#define TAPS 5

__constant__ float c_weights[TAPS] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__constant__ int c_offset = 2;
__device__ int d_lookup[4] = {1, 3, 5, 7};
__device__ float d_scale = 1.5f;
__device__ float d_results[1024];

__global__ void applyFilter(const float *in, float *out, int n)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < TAPS; ++k) {
    int j = gid + k - c_offset;
    if (j >= 0 && j < n)
      acc += c_weights[k] * in[j];
  }
  acc *= d_scale;
  out[gid] = acc + (float)d_lookup[gid & 3];
  d_results[gid] = acc;
}
