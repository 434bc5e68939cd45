//pass
//--blockDim=4 --gridDim=2
//
// Dynamic parallelism: a kernel launches kernels from device code, on a
// stream it creates there. The launches are not followed (a warning says
// so): the parent's own accesses are checked, and the child is checked as
// a kernel of its own, with no launch taken from the host for it.
__global__ void scale(float *data, int n, float by)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= by;
}

__global__ void parent(float *data, int *seen, int n)
{
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    scale<<<(n + 127) / 128, 128, 0, s>>>(data + blockIdx.x * n, n, 2.0f);
    cudaStreamDestroy(s);
    seen[blockIdx.x] = 1;
  }
  seen[gridDim.x + tid] = tid;
}
