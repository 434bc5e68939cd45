//pass
//--blockDim=[8,4,2] --gridDim=[2,3,2]
// threadIdx, blockIdx, blockDim and gridDim in x, y and z, linearised into a
// unique global index; warpSize for lane and warp numbers; a 3-D shared array
// indexed [z][y][x] and read back point-mirrored after a barrier.
__global__ void indices3d(unsigned *linear, unsigned *lane, unsigned *warp, unsigned *mirror)
{
  __shared__ unsigned cube[2][4][8];

  unsigned tLocal = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned bLinear = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned threadsPerBlock = blockDim.x * blockDim.y * blockDim.z;
  unsigned gid = bLinear * threadsPerBlock + tLocal;

  linear[gid] = gid;
  lane[gid] = tLocal % warpSize;
  warp[gid] = tLocal / warpSize;

  cube[threadIdx.z][threadIdx.y][threadIdx.x] = gid;
  __syncthreads();
  mirror[gid] = cube[blockDim.z - 1 - threadIdx.z]
                    [blockDim.y - 1 - threadIdx.y]
                    [blockDim.x - 1 - threadIdx.x];
}
