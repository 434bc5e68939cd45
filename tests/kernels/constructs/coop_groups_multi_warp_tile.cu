//pass
//--blockDim=128 --gridDim=2
//
// A tile wider than a warp (thread_block_tile<64>, with the
// block_tile_memory scratch cooperative groups asks for): tile.sync()
// orders the tile's two warps, so a thread may read a value another warp
// of its tile wrote. cg::reduce over the tile gives a value the model
// does not compute (an unknown, as for every exchange).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tiles(const float *in, float *out) {
  __shared__ cg::block_tile_memory<128> scratch;
  __shared__ float v[128];
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[threadIdx.x] = in[i];
  tile.sync();
  int base = tile.meta_group_rank() * 64;
  float mirrored = v[base + 63 - tile.thread_rank()];
  float sum = cg::reduce(tile, mirrored, cg::plus<float>());
  out[i] = mirrored + sum;
}
