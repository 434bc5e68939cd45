//pass
//--blockDim=256 --gridDim=1
// A double-buffered Hillis-Steele scan: each step reads row `cur` and
// writes row `1 - cur`, then the rows swap roles after the barrier. `cur`
// is the same in every thread of an iteration (0 in even iterations, 1 in
// odd ones), so a step never writes the row it reads.
#define N 256
__global__ void pingPongScan(const int *in, int *out)
{
  __shared__ int s[2][N];
  int t = threadIdx.x;
  int cur = 0;
  s[cur][t] = in[t];
  __syncthreads();
  for (int off = 1; off < N; off *= 2) {
    int nxt = 1 - cur;
    if (t >= off)
      s[nxt][t] = s[cur][t] + s[cur][t - off];
    else
      s[nxt][t] = s[cur][t];
    __syncthreads();
    cur = nxt;
  }
  out[t] = s[cur][t];
}
