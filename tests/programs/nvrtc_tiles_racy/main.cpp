// The host side of tiles_kernel.cu: it looks the 16x16 kernel up for
// 32x32 blocks (and the 32x32 kernel for 16x16 ones), a mix-up of the
// two names.
#include <cuda.h>

int transposeImage(CUmodule module, CUdeviceptr d_out, CUdeviceptr d_in, int width, int bs)
{
  CUfunction kernel;
  if (bs == 32) {
    checkCudaErrors(cuModuleGetFunction(&kernel, module, "transpose16"));
  } else if (bs == 16) {
    checkCudaErrors(cuModuleGetFunction(&kernel, module, "transpose32"));
  } else {
    return 1;
  }
  void *args[] = {(void *)&d_out, (void *)&d_in, (void *)&width};
  checkCudaErrors(cuLaunchKernel(kernel, width / bs, width / bs, 1, bs, bs, 1, 0, 0, &args[0], 0));
  return 0;
}
