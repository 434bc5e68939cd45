//xfail:front-end
//--blockDim=64 --gridDim=2
// Preprocessor error: an active #error directive (the tile width is not a
// multiple of the warp size).
#define TILE 48

#if (TILE % 32) != 0
#error "unsupported config"
#endif

__global__ void tileCopy(const float *in, float *out)
{
  int idx = blockIdx.x * TILE + threadIdx.x;
  out[idx] = in[idx];
}
