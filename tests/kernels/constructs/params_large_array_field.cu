//pass
//--blockDim=256 --gridDim=2
//
// A parameter struct too large to pass element by element (a 512-entry
// table, as in kernels that pass lookup tables by value with
// __grid_constant__): its array field is read like __constant__ memory,
// where CUDA keeps kernel parameters. Each thread reads the table and
// writes its own element.
struct Table {
  float scale;
  float weights[512];
};

__global__ void apply(__grid_constant__ const Table t, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = t.scale * t.weights[i % 512];
}
