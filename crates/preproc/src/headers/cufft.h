// warpsafe built-in <cufft.h>: cuFFT's data types only (its host API is not
// device code; callbacks and plans are not modelled)
#ifndef __WARPSAFE_CUFFT_H
#define __WARPSAFE_CUFFT_H
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef float2 cufftComplex;
typedef double2 cufftDoubleComplex;
typedef int cufftResult;
typedef int cufftHandle;
#define CUFFT_SUCCESS 0
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1
#endif
