//pass
//--blockDim=64 --gridDim=8
// Built-in vector types: float4 and int2 member access (.x/.y/.z/.w),
// make_float4 / make_int2, a local array of float4 and a __shared__ float4
// array exchanged between neighbouring threads across a barrier.
__global__ void vectorTypes(const float4 *in, float4 *out, int2 *coords)
{
  __shared__ float4 stage[64];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;

  float4 v = in[gid];
  float4 pair[2];
  pair[0] = v;
  pair[1] = make_float4(v.w, v.z, v.y, v.x);
  float len2 = v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;

  stage[tid] = make_float4(pair[0].x + pair[1].x, pair[0].y + pair[1].y, len2, 1.0f);
  __syncthreads();

  float4 nb = stage[(tid + 1) % blockDim.x];
  out[gid] = make_float4(nb.x, nb.y, nb.z, v.w);
  out[gid].w += nb.w;

  int2 c = make_int2((int)(gid & 15u), (int)(gid >> 4));
  c.x += 1;
  c.y = c.y * 2;
  coords[gid] = c;
}
