//pass
//--blockDim=128 --gridDim=4 -DUSE_SMEM
// Preprocessor: object-like and function-like macros, an #if/#elif/#else chain
// on a macro value (with an #error in a branch that is not taken), #ifdef /
// #else selecting the shared-memory path via -DUSE_SMEM, #if defined(...) and
// #pragma unroll on constant-trip loops.
#define BLOCK 128
#define RADIUS 2
#define IDX(b, t) ((b) * BLOCK + (t))
#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : ((x) > (hi) ? (hi) : (x)))

#if RADIUS > 3
#error "halo wider than supported"
#elif RADIUS == 2
#define WEIGHT 0.2f
#else
#define WEIGHT (1.0f / (2 * RADIUS + 1))
#endif

#if defined(USE_SMEM) && (BLOCK % 32) != 0
#error "the staged path needs whole warps"
#endif

__global__ void stencil(const float *in, float *out, int n)
{
  int tid = threadIdx.x;
  int gid = IDX(blockIdx.x, tid);
  float acc = 0.0f;
#ifdef USE_SMEM
  __shared__ float s[BLOCK];
  s[tid] = in[gid];
  __syncthreads();
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k)
    acc += s[CLAMP(tid + k, 0, BLOCK - 1)];
#else
#pragma unroll 5
  for (int k = -RADIUS; k <= RADIUS; ++k)
    acc += in[CLAMP(gid + k, 0, n - 1)];
#endif
  out[gid] = WEIGHT * acc;
}
