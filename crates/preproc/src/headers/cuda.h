// warpsafe built-in <cuda.h>: driver API types and constants only
#ifndef __WARPSAFE_CUDA_H
#define __WARPSAFE_CUDA_H
#include <stddef.h>
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUtexObject;
// A surface is a byte array to warpsafe (see the front end's surface.rs).
typedef unsigned char *CUsurfObject;
#define CUDA_SUCCESS 0
#define CUDA_VERSION 12000
#endif
