//xfail:data-race
//--blockDim=[32,4] --gridDim=[2,2,3]
// The 1-D record is indexed without the layer: the blocks of every layer
// write the same first row.
__global__ void fillLayers(cudaSurfaceObject_t layers, cudaSurfaceObject_t firstRow, int width)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int layer = blockIdx.z;
  float v = x + 0.5f * y + 100.0f * layer;
  surf2DLayeredwrite(v, layers, x * 4, y, layer);
  if (y == 0 && x < width) {
    surf1Dwrite(v, firstRow, x * 4);
  }
}
