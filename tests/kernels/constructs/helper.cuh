// helper.cuh: header included by preprocessor_include.cu (not a test itself).
// Include guard, a macro, and __device__ inline helpers.
#ifndef WARPSAFE_TEST_HELPER_CUH
#define WARPSAFE_TEST_HELPER_CUH

#define HELPER_EPS 1e-6f

__device__ inline int globalIndex()
{
  return blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ inline float safeInverse(float x)
{
  return fabsf(x) > HELPER_EPS ? 1.0f / x : 0.0f;
}

#endif // WARPSAFE_TEST_HELPER_CUH
