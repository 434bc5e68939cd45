//xfail:data-race
//--blockDim=1 --gridDim=2
// An unsynchronised plain counter and a plain flag next to an atomic:
// data races. `explore --repair` makes the plain read and write atomic
// (atomicAdd(&x, 0) and atomicExch) at device scope, the read inside the
// write's value too, which removes the races (the increment is still not
// one atomic step: a lost update is a bug repair does not address).

__global__ void count(int *counter, int *flag)
{
  counter[0] = counter[0] + 1;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    flag[0] = 1;
  else
    atomicAdd(&flag[0], 0);
}
