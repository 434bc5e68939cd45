//pass
//--blockDim=128 --gridDim=2
// Loop forms: a grid-stride for loop, for loops stepping k += 2, w *= 2,
// w >>= 1 and downwards, a barrier inside a loop with a block-uniform trip
// count (Hillis-Steele scan), then an early return after the last barrier,
// while with break and do-while with continue (thread 0 only).
__global__ void loopForms(float *data, const float *in, float *scan, int *blockInfo, int n)
{
  __shared__ float s[128];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int stride = blockDim.x * gridDim.x;

  for (int i = gid; i < n; i += stride)
    data[i] = data[i] * 0.5f;

  float local = 0.0f;
  for (int k = 0; k < 16; k += 2)
    local += (float)k;
  for (int w = 1; w < 256; w *= 2)
    if (gid & w) local += 1.0f;
  for (int w = 128; w > 0; w >>= 1)
    if (gid & w) local -= 0.5f;
  for (int k = 3; k >= 0; --k)
    local = local * 0.5f + (float)k;

  s[tid] = in[gid] + local;
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset *= 2) {
    float t = tid >= offset ? s[tid - offset] : 0.0f;
    __syncthreads();
    s[tid] += t;
    __syncthreads();
  }
  scan[gid] = s[tid];

  if (tid != 0)
    return;

  int j = 0;
  while (j < (int)blockDim.x) {
    if (s[j] < 0.0f)
      break;
    ++j;
  }
  int negatives = 0, k = 0;
  do {
    ++k;
    if (s[k - 1] >= 0.0f)
      continue;
    ++negatives;
  } while (k < (int)blockDim.x);

  blockInfo[2 * blockIdx.x] = j;
  blockInfo[2 * blockIdx.x + 1] = negatives;
}
