//pass
//--blockDim=1 --gridDim=2
// Every block records itself with an atomic exchange: no race (atomics of
// device scope), but the last block to exchange wins, so the final value
// of `winner` depends on the schedule. `warpsafe run --compare-final`
// reports the two final states and a schedule for each (seed 003's final
// state comparison); a plain run finds no error.
__global__ void lastWriter(int *winner)
{
  atomicExch(winner, blockIdx.x + 1);
}
