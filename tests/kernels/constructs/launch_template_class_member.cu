//pass
//--blockDim=128 --gridDim=4
//
// A kernel launched from a member of a class template defined out of line
// (`Estimator<Real>::run`), instantiated by `template class
// Estimator<float>;`: the launch gives `count<float>`.
template <typename Real>
__global__ void count(unsigned *hits, const Real *points, unsigned n)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    hits[i] = points[i] * points[i] < Real(1) ? 1u : 0u;
}

template <typename Real> class Estimator {
public:
  unsigned run(unsigned *hits, const Real *points, unsigned n);
};

template <typename Real>
unsigned Estimator<Real>::run(unsigned *hits, const Real *points, unsigned n)
{
  count<Real><<<(n + 127) / 128, 128>>>(hits, points, n);
  return 0;
}

template class Estimator<float>;
