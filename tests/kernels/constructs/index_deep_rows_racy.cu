//xfail:data-race
//
// The store of a tiled matrix product, as the classic sample writes it:
// block (bx, by) of BS x BS threads writes C[c + wB * ty + tx] with
// c = wB * BS * by + BS * bx. The index is the row BS * by + ty of width
// wB at column BS * bx + tx, with the width deep inside one product
// (wB * BS * by); `check` reads it as that row (a factored row lemma) and,
// with the launch relation gridDim.x == wB / BS of the host code, proves
// the store race-free. Here the grid has one column of blocks too many:
// the last block's columns run past wB into the next row, a real race.
#define BS 16

__global__ void matmul_store(float *C, const float *A, int wA, int wB)
{
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = wB * BS * by + BS * bx;
  float sum = 0.0f;
  for (int k = 0; k < wA; ++k) {
    sum += A[(BS * by + ty) * wA + k];
  }
  C[c + wB * ty + tx] = sum;
}

void run(float *C, const float *A, int wA, int wB, int hA)
{
  dim3 threads(BS, BS);
  dim3 grid(wB / BS + 1, hA / BS);
  matmul_store<<<grid, threads>>>(C, A, wA, wB);
}
