//xfail:data-race
//--blockDim=256 --gridDim=2
//
// The racy twin of params_large_array_field.cu: the output index comes
// from the table, so two threads may write one element.
struct Table {
  float scale;
  int slot[512];
};

__global__ void apply(__grid_constant__ const Table t, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[t.slot[i % 512]] = t.scale;
}
