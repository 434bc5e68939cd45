// warpsafe built-in <cuda_runtime.h>
#ifndef __WARPSAFE_CUDA_RUNTIME_H
#define __WARPSAFE_CUDA_RUNTIME_H
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
// nvcc's runtime header brings the C math library's declarations and
// macros with it (crt/math_functions.h includes <math.h>), so code using
// M_PI or INFINITY without including <math.h> compiles.
#include <math.h>
#endif
