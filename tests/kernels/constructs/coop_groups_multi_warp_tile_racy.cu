//xfail:data-race
//--blockDim=128 --gridDim=2
//
// The racy twin of coop_groups_multi_warp_tile.cu: a thread reads a value
// of the other tile, which tile.sync() does not order.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tiles(const float *in, float *out) {
  __shared__ cg::block_tile_memory<128> scratch;
  __shared__ float v[128];
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[threadIdx.x] = in[i];
  tile.sync();
  out[i] = v[127 - threadIdx.x];
}
