// warpsafe built-in <cuda_runtime.h>
#ifndef __WARPSAFE_CUDA_RUNTIME_H
#define __WARPSAFE_CUDA_RUNTIME_H
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#endif
