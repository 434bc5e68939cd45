//xfail:data race
//--blockDim=256 --gridDim=1
// The ping-pong scan with the roles mixed up: the step writes row `cur`,
// the row other threads are reading in the same iteration.
#define N 256
__global__ void pingPongScanRacy(const int *in, int *out)
{
  __shared__ int s[2][N];
  int t = threadIdx.x;
  int cur = 0;
  s[cur][t] = in[t];
  __syncthreads();
  for (int off = 1; off < N; off *= 2) {
    int nxt = 1 - cur;
    if (t >= off)
      s[cur][t] = s[cur][t] + s[cur][t - off];
    else
      s[nxt][t] = s[cur][t];
    __syncthreads();
    cur = nxt;
  }
  out[t] = s[cur][t];
}
