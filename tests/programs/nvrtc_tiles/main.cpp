// The host side of tiles_kernel.cu: the kernel is looked up by its name
// in the module NVRTC compiled, and launched with its arguments behind an
// array of pointers.
#include <cuda.h>

int transposeImage(CUmodule module, CUdeviceptr d_out, CUdeviceptr d_in, int width, int bs)
{
  CUfunction kernel;
  if (bs == 16) {
    checkCudaErrors(cuModuleGetFunction(&kernel, module, "transpose16"));
  } else if (bs == 32) {
    checkCudaErrors(cuModuleGetFunction(&kernel, module, "transpose32"));
  } else {
    return 1;
  }
  void *args[] = {(void *)&d_out, (void *)&d_in, (void *)&width};
  checkCudaErrors(cuLaunchKernel(kernel, width / bs, width / bs, 1, bs, bs, 1, 0, 0, &args[0], 0));
  return 0;
}
