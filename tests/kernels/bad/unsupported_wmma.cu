//xfail:front-end
//--blockDim=32 --gridDim=1
// Warp matrix fragments (tensor cores) are not modelled yet: the kernel is
// left out with a message that names the fragment type and says why,
// rather than a bare "unsupported type".
#include <mma.h>
using namespace nvcuda;

__global__ void tile16(const half *a, const half *b, float *c)
{
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
