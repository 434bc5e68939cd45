//pass
//--blockDim=4 --gridDim=1
//
// A local array of pointers into one shared array (as marching cubes
// keeps its triangle's three vertices): the kernel stores the pointers, so
// what they point to is known, and reads through them after the barrier
// do not race with the writes before it.
#define N 4
__global__ void triangles(const int *edges, float *out)
{
  __shared__ float3 verts[3 * N];
  for (int i = 0; i < 3; i++)
    verts[i * N + threadIdx.x] = make_float3(threadIdx.x, i, 1.0f);
  __syncthreads();
  float3 *v[3];
  for (int i = 0; i < 3; i++)
    v[i] = &verts[i * N + (edges[i] & (N - 1))];
  out[threadIdx.x] = (*v[0]).x * 100.0f + v[1]->x * 10.0f + v[2]->x;
}
