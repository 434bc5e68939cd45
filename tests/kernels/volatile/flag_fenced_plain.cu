//xfail:data-race
//--blockDim=2 --gridDim=1
// flag_fenced.cu under the default reading of volatile: plain accesses. The
// write of the flag and the reads that wait for it race, fences or not
// (fences order only atomics' synchronisation).
__global__ void publish(int *data, volatile int *flag, int *out)
{
  if (threadIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    flag[0] = 1;
  } else {
    while (flag[0] == 0)
      ;
    __threadfence();
    out[0] = data[0];
  }
}
