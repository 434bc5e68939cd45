//xfail:data-race
//
// The twin of ../nvrtc_tiles: main.cpp launches `transpose16` with 32x32
// blocks, so thread (16, 0) writes `tile[0][16]`, which is `tile[1][0]`,
// the element of thread (0, 1).
#define TILE(N)                                                                \
  {                                                                            \
    __shared__ float tile[N][N];                                               \
    int x = blockIdx.x * N + threadIdx.x;                                      \
    int y = blockIdx.y * N + threadIdx.y;                                      \
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];                        \
    __syncthreads();                                                           \
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];                       \
  }

extern "C" __global__ void transpose16(float *out, const float *in, int width) TILE(16)

extern "C" __global__ void transpose32(float *out, const float *in, int width) TILE(32)
