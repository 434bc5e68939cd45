//xfail:barrier-divergence
//--blockDim=2 --gridDim=1
// Found while minimising diff_mismatched_syncthreads.cu; NOT FIXED.
// Thread 0 passes the barrier of h() called from the branch, thread 1 the
// one of h() called after it: two different barrier statements once
// inlined, so barrier divergence (check reports it). explore tells
// barriers apart by source span, and both inlined copies carry the span
// of the helper's body, so it still calls this kernel SAFE. A fix needs
// the interpreter to give barrier events an identity of the inlined
// statement (interp + mc), not just its span.

__device__ void h() { __syncthreads(); }

__global__ void two_call_sites(int *a) {
  if (threadIdx.x == 0) {
    h();
    return;
  }
  h();
}
