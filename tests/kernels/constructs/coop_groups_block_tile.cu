//pass
//--blockDim=128 --gridDim=4
// Cooperative groups inside a block: cg::thread_block with b.sync() and
// b.thread_rank(), and a 32-thread tile from cg::tiled_partition<32> with
// tile.sync() and tile.thread_rank() driving a per-tile reduction.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tileSums(const float *in, float *out)
{
  __shared__ float s[128];
  cg::thread_block b = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(b);

  unsigned r = b.thread_rank();
  unsigned gid = blockIdx.x * blockDim.x + r;

  s[r] = in[gid];
  b.sync();
  float v = s[blockDim.x - 1 - r];
  b.sync();
  s[r] = v;
  tile.sync();

  unsigned lane = tile.thread_rank();
  unsigned base = r - lane;
  for (unsigned off = 16; off > 0; off >>= 1) {
    if (lane < off)
      s[base + lane] += s[base + lane + off];
    tile.sync();
  }

  if (lane == 0)
    out[gid / 32] = s[base];
}
