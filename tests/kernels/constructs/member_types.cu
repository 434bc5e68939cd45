//pass
//--blockDim=64 --gridDim=4
// Member types of classes: `typename vec<T>::Type` picks the explicit
// specialisation for T (`float4` for float), the primary template for any
// other T (`Pair<T>::First` is T itself), and a plain struct's `using`
// alias. Each thread moves its own element.
template <typename T> struct vec { typedef T Type; };
template <> struct vec<float> { typedef float4 Type; };
template <typename T, int N = 2> struct Pair {
  typedef T First;
  using Row = T[N];
};
struct Index { using type = unsigned int; };

template <typename T>
__global__ void move(typename vec<T>::Type *out, typename vec<T>::Type *in, int n)
{
  typename Index::type i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    typename vec<T>::Type v = in[i];
    typename Pair<int>::First k = 2;
    out[i] = v;
    out[i].x = v.x * k;
  }
}

template __global__ void move<float>(float4 *out, float4 *in, int n);
