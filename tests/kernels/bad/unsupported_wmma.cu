//xfail:front-end
//--blockDim=32 --gridDim=1
// Warp matrix fragments of 1-bit elements (experimental precision::b1) are
// not modelled: the kernel is left out with a message that names the
// fragment's element type, rather than a bare "unsupported type".
#include <mma.h>
using namespace nvcuda;

__global__ void bits(const unsigned *a, const unsigned *b, int *c)
{
  wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc;
  wmma::fill_fragment(acc, 0);
  wmma::load_matrix_sync(fa, a, 128);
  wmma::load_matrix_sync(fb, b, 128);
  wmma::bmma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 8, wmma::mem_row_major);
}
