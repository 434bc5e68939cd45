//pass
//--blockDim=1 --gridDim=2
// A spin lock taken by atomicExch, as CUDA code writes it: the exchange
// that reads 1 leaves the lock as it was, so spin-assume treats it as a
// read and the waiting thread costs one blocked execution, not a loop
// bound. __threadfence() after taking and before releasing the lock orders
// the counter update between the holders (fence-fence synchronisation).
__global__ void xchglock(int *lock, int *counter)
{
  while (atomicExch(lock, 1) != 0)
    ;
  __threadfence();
  counter[0] = counter[0] + 1;
  __threadfence();
  atomicExch(lock, 0);
}
