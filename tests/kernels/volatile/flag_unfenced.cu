//xfail:data-race
//--blockDim=2 --gridDim=1 --volatile=atomic
// Message passing through a volatile flag without fences, read as PTX reads
// volatile: the flag accesses are relaxed atomics and do not race, but
// relaxed atomics synchronise nothing, so the payload races.
__global__ void publish(int *data, volatile int *flag, int *out)
{
  if (threadIdx.x == 0) {
    data[0] = 42;
    flag[0] = 1;
  } else {
    while (flag[0] == 0)
      ;
    out[0] = data[0];
  }
}
