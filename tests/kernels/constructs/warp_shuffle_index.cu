//xfail:DATA_RACE
//--blockDim=64 --gridDim=1
//
// An index taken from another lane by __shfl_xor_sync: warpsafe does not
// know the exchanged value (any value), so the write may collide with
// another thread's; the race is reported as possible, not provable,
// with the shuffle named as the reason.
__global__ void scatter(int *out, const int *keys)
{
  int k = keys[threadIdx.x];
  int partner = __shfl_xor_sync(0xffffffff, k, 1);
  out[partner] = threadIdx.x;
}
