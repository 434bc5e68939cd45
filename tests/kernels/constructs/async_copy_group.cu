//pass
//--blockDim=64 --gridDim=2
//
// A collective copy shared by the threads of a warp tile: each warp copies
// 64 doubles (32 double2 chunks) into its own row of shared memory with
// cg::memcpy_async, and cg::wait(block) waits for every copy of the block
// and synchronises it, so a warp may read the other warp's row.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void rows(const double *in, double *out) {
  __shared__ double row[2][64];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int w = threadIdx.x / 32;
  cg::memcpy_async(warp, &row[w][0], &in[blockIdx.x * 128 + w * 64],
                   cuda::aligned_size_t<16>{warp.size() * sizeof(double2)});
  cg::wait(block);
  out[blockIdx.x * 64 + threadIdx.x] =
      row[1 - w][threadIdx.x % 32] + row[w][63 - threadIdx.x % 32];
}
