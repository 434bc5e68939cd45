//xfail:data-race
//--blockDim=64 --gridDim=4
// The primary template's member type is used for `int` (no
// specialisation matches), and every thread writes element 0 of it.
template <typename T> struct vec { typedef T Type; };
template <> struct vec<float> { typedef float4 Type; };

template <typename T>
__global__ void move(typename vec<T>::Type *out, typename vec<T>::Type *in, int n)
{
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[0] = in[i];
  }
}

template __global__ void move<int>(int *out, int *in, int n);
