//xfail:fault
//--blockDim=4 --gridDim=1
// Each thread writes the element after its own: the last thread writes one
// past the end of an array of blockDim elements. `warpsafe explore` can see
// that only when it knows the length: with `--array a=4` it reports the
// out-of-bounds write (array, index, thread, line); without, it says the
// array is not bounds-checked.
__global__ void shift(int *a)
{
  a[threadIdx.x + 1] = threadIdx.x;
}
