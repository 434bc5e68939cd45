//pass
//
// Kernels compiled at run time (NVRTC) and launched by name through the
// driver API from main.cpp, the program's other file. `transpose16` and
// `transpose32` each hold one tile of their block's size: main.cpp picks
// the kernel that matches its block size, and launches it with a grid of
// `width / bs` blocks for a row of `width` pixels, so every thread writes
// its own pixel. The twin program (../nvrtc_tiles_racy) launches
// `transpose16` with 32x32 blocks, whose threads overrun its tile.
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
