//xfail:data-race
//--blockDim=4 --gridDim=1
// Each thread writes its id to the slot its index names. With the default
// (zeroed) indices every thread writes out[0], a data race; with a
// permutation (`--input scatter.json`) the writes are disjoint and in
// bounds; with an index past the end the write faults.
__global__ void scatter(const unsigned *idx, int *out)
{
  out[idx[threadIdx.x]] = threadIdx.x;
}
