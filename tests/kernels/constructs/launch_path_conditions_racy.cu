//xfail:data-race
//
// The conditions on the way to the launch (k is not zero, the block has 256
// threads) leave the race: threads k apart share `out[threadIdx.x / k]`
// as soon as k > 1.
__global__ void bucket(int *out, unsigned k)
{
  out[threadIdx.x / k] = threadIdx.x;
}

void run(int *out, unsigned k, int threads)
{
  if (k == 0)
    return;
  if (threads == 256)
    bucket<<<1, threads>>>(out, k);
}
