//pass
//--blockDim=[32,4] --gridDim=[2,2,3]
// Block z fills layer z of a layered `float` surface; a 1-D surface
// records each layer's first row, written by the threads of row 0 of the
// blocks at gridDim y 0 only.
__global__ void fillLayers(cudaSurfaceObject_t layers, cudaSurfaceObject_t firstRow, int width)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int layer = blockIdx.z;
  float v = x + 0.5f * y + 100.0f * layer;
  surf2DLayeredwrite(v, layers, x * 4, y, layer);
  if (y == 0 && x < width) {
    surf1Dwrite(v, firstRow, (layer * width + x) * 4);
  }
}
