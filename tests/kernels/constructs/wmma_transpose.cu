//pass
//--blockDim=32 --gridDim=1
//
// A warp moves an 8x8 double tile through an accumulator fragment: loaded
// row-major and stored column-major, the tile comes out transposed (each
// element is read by one thread and written by one thread of the warp).
#include <mma.h>
using namespace nvcuda;

__global__ void transpose(const double *in, double *out)
{
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::load_matrix_sync(acc, in, 8, wmma::mem_row_major);
  wmma::store_matrix_sync(out, acc, 8, wmma::mem_col_major);
}
