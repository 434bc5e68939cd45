//xfail:data-race
//--blockDim=64 --gridDim=2
//
// The racy twin of async_copy_group.cu: cg::wait(warp) synchronises only
// the warp that copied, so reading the other warp's row races with that
// warp's copy.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void rows(const double *in, double *out) {
  __shared__ double row[2][64];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int w = threadIdx.x / 32;
  cg::memcpy_async(warp, &row[w][0], &in[blockIdx.x * 128 + w * 64],
                   64 * sizeof(double));
  cg::wait(warp);
  out[blockIdx.x * 64 + threadIdx.x] = row[1 - w][threadIdx.x % 32];
}
