//pass
//--blockDim=128 --gridDim=2
// Warp-level synchronisation on shared memory: __syncwarp() orders accesses
// between the lanes of a warp; inside if (lane < 16) the lower half-warp uses
// __syncwarp(0x0000ffff), a mask naming exactly the lanes that execute it.
// Each warp only touches its own 32 slots of s.
__global__ void warpFold(const int *in, int *out, int *rotated)
{
  __shared__ int s[128];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int lane = tid % 32;
  int base = tid - lane;

  s[tid] = in[gid];
  __syncwarp();
  int r = s[base + (lane + 1) % 32];
  __syncwarp();
  s[tid] = r;
  rotated[gid] = r;
  __syncwarp();

  if (lane < 16) {
    s[tid] += s[tid + 16];
    __syncwarp(0x0000ffffu);
    if (lane < 8)
      s[tid] += s[tid + 8];
  }
  __syncwarp();

  if (lane == 0)
    out[gid / 32] = s[base] + s[base + 1];
}
