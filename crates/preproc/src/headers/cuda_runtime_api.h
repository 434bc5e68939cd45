// warpsafe built-in <cuda_runtime_api.h>: host API types and constants only
#ifndef __WARPSAFE_CUDA_RUNTIME_API_H
#define __WARPSAFE_CUDA_RUNTIME_API_H
// The runtime's version, as CUDA 12.0's header has it (nvcc includes this
// header implicitly; `#if CUDART_VERSION >= 2020` guards kernel includes).
#define CUDART_VERSION 12000
#include <stddef.h>
#include <limits.h>
#include <time.h>
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 719,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoDevice = 100,
  cudaErrorUnknown = 999
} cudaError_t;
typedef enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;
struct cudaExtent {
  size_t width;
  size_t height;
  size_t depth;
};
struct cudaPos {
  size_t x;
  size_t y;
  size_t z;
};
typedef unsigned long long cudaGraphConditionalHandle;
// A stream is an opaque number to warpsafe (device code only passes it to
// launches, which the front end's device_launch.rs does not follow).
typedef unsigned long long cudaStream_t;
typedef unsigned long long cudaTextureObject_t;
// A surface is a byte array to warpsafe (see the front end's surface.rs).
typedef unsigned char *cudaSurfaceObject_t;
typedef struct CUevent_st *cudaEvent_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#endif
