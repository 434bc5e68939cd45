//xfail:data-race
//--blockDim=64 --gridDim=[1,16]
// The pitched field with a pitch shorter than a row (384 < 512 bytes):
// the end of each row is the start of the next one.
#define PITCH 384

__global__ void scaleRows(float2 *field, float s)
{
  int x = threadIdx.x;
  int y = blockIdx.y;
  float2 *row = (float2 *)((char *)field + y * PITCH);
  row[x].x *= s;
  row[x].y *= s;
}
