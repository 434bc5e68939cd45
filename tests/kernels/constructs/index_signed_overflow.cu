//pass
//
// A race that needs signed overflow: `i * 2^30 < 0` never holds for
// i >= 0 in C++ (signed overflow is undefined behaviour), so no thread
// writes and check proves the kernel race-free by default. A GPU wraps:
// threads 2, 3, 6, 7, ... see a negative product and all write `flag[0]`.
// `warpsafe check --signed-wrap` (and explore, which wraps) report that.

__global__ void overflow_guard(int *flag) {
  int i = threadIdx.x;
  if (i * 1073741824 < 0) {
    flag[0] = i;
  }
}
