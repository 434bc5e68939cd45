//xfail:data-race
//--blockDim=64 --gridDim=2
//
// The racy twin of class_template_objects.cu: the window's stride is 1,
// so thread t reads data[t .. t+3] while thread t+1 writes data[t+1]
// through the out-of-line `Window<T, N>::put`.
template <class T> struct Pair {
  T lo, hi;
  __device__ Pair(T a, T b) : lo(a), hi(b) {}
  __device__ T width() const;
};

template <class T> __device__ T Pair<T>::width() const { return hi - lo; }

template <class T> __device__ T span(Pair<T> p) { return p.width(); }

template <class T, int N> class Window {
  T *base;
  int stride;

public:
  __device__ Window(T *b, int s) : base(b), stride(s) {}
  __device__ T get(int i) const { return base[i * stride]; }
  __device__ void put(int i, T v);
  __device__ int count() const { return N; }
};

template <class T, int N> __device__ void Window<T, N>::put(int i, T v) { base[i * stride] = v; }

template <class T> struct Scale {
  enum Factor { Twice = 2 };
  __device__ T apply(T x) const { return x * Twice; }
};

template <> struct Scale<int> {
  __device__ int apply(int x) const { return x + 1; }
};

template <class T> struct Unit {
};

template <> struct Unit<float> {
  static __device__ float one() { return 1.0f; }
};

template <> struct Unit<int> {
  static __device__ int one() { return 1; }
};

template <class T> __global__ void columns(T *data, T *out)
{
  typedef Window<T, 4> W;
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  W w(data + tid, 1);
  Scale<T> s;
  T acc = 0;
  for (int i = 0; i < 4; i++)
    acc += s.apply(w.get(i));
  w.put(0, acc);
  out[tid] = span(Pair<T>(acc, acc + Unit<T>::one()));
}

template __global__ void columns<float>(float *, float *);
template __global__ void columns<int>(int *, int *);
