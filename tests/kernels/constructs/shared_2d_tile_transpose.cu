//pass
//--blockDim=[16,16] --gridDim=[4,4]
// Static 2-D shared array with a padding column (__shared__ float tile[16][17]),
// 2-D thread and block indices, and a __syncthreads() between the coalesced
// write of the tile and its transposed read.
__global__ void transpose(const float *in, float *out)
{
  __shared__ float tile[16][17];
  int width = gridDim.x * 16;
  int height = gridDim.y * 16;

  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();

  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
