//pass
//--blockDim=2 --gridDim=1 --volatile=atomic
// Message passing through a volatile flag, fenced on both sides: thread 0
// writes the payload, fences and raises the flag; thread 1 waits for the
// flag, fences and reads the payload. Read as PTX reads volatile (relaxed
// system-scope atomics) the flag accesses do not race and the fence pair
// orders the payload: no race. Read as plain accesses (the default) the
// flag itself races: see flag_fenced_plain.cu.
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
