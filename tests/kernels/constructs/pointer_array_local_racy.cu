//xfail:data-race
//--blockDim=4 --gridDim=1
//
// The racy twin of pointer_array_local.cu: the threads write through the
// stored pointers, which may point to the same vertex, with no barrier
// between their writes and reads.
#define N 4
__global__ void triangles(const int *edges, float *out)
{
  __shared__ float3 verts[3 * N];
  float3 *v[3];
  for (int i = 0; i < 3; i++)
    v[i] = &verts[i * N + (edges[i] & (N - 1))];
  v[0]->x = threadIdx.x;
  out[threadIdx.x] = v[1]->x;
}
