//pass
//--blockDim=64 --gridDim=2
//
// Tensor cores (wmma): each warp stages its own 16x16 half tiles of A and
// B in shared memory, synchronises, loads them into fragments, multiplies
// them and stores its 16x16 float tile of C. Warps use disjoint shared
// tiles and disjoint tiles of C, so the kernel is race-free.
#include <mma.h>
using namespace nvcuda;

__global__ void tiles(const half *a, const half *b, float *c)
{
  __shared__ half sa[2][256];
  __shared__ half sb[2][256];
  unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned tile = blockIdx.x * 2 + warp;
  for (unsigned i = lane; i < 256; i += 32) {
    sa[warp][i] = a[tile * 256 + i];
    sb[warp][i] = b[tile * 256 + i];
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, sa[warp], 16);
  wmma::load_matrix_sync(fb, sb[warp], 16);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; i++)
    acc.x[i] = 2.0f * acc.x[i];
  wmma::store_matrix_sync(c + tile * 256, acc, 16, wmma::mem_row_major);
}
