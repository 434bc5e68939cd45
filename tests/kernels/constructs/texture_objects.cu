//pass
//--blockDim=[16,16] --gridDim=[2,2]
// Texture objects (`cudaTextureObject_t`, from the implicit
// <cuda_runtime.h>) read with `tex2D<T>`: the values are unknown to
// warpsafe, the writes they feed go to distinct elements. `clock_t` comes
// with <cuda_runtime.h> too, as with nvcc.
__global__ void k(float *out, uchar4 *rgba, int width, cudaTextureObject_t tex,
                  cudaTextureObject_t img) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  clock_t start = clock();
  out[y * 32 + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
  uchar4 c = tex2D<uchar4>(img, x, y);
  rgba[y * 32 + x] = c;
  (void)start;
}
