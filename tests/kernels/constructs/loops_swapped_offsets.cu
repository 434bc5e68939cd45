//pass
//--blockDim=128 --gridDim=1
// Two buffers in one shared array, addressed by offsets that a loop swaps
// (`tmp = src; src = dst; dst = tmp`) after each barrier, and a flag
// toggled with `^=`: in every iteration all threads agree on which half
// is read and which is written.
#define N 128
__global__ void swappedOffsets(float *data, int steps)
{
  __shared__ float s[2 * N];
  int t = threadIdx.x;
  int src = 0, dst = N;
  int parity = 0;
  s[t] = data[t];
  __syncthreads();
  for (int k = 0; k < steps; k++) {
    float left = s[src + (t + N - 1) % N];
    float right = s[src + (t + 1) % N];
    s[dst + t] = 0.5f * (left + right) + (float)parity;
    __syncthreads();
    int tmp = src;
    src = dst;
    dst = tmp;
    parity ^= 1;
  }
  data[t] = s[src + t];
}
