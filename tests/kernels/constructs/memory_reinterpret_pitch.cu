//pass
//--blockDim=64 --gridDim=[1,16]
// A pitched 2-D field of `float2`: rows start PITCH bytes apart, reached
// through a `char *` (byte arithmetic) and cast back to `float2 *`. A row
// of 64 `float2` is 512 bytes, so rows of PITCH = 640 bytes do not meet.
#define PITCH 640

__global__ void scaleRows(float2 *field, float s)
{
  int x = threadIdx.x;
  int y = blockIdx.y;
  float2 *row = (float2 *)((char *)field + y * PITCH);
  row[x].x *= s;
  row[x].y *= s;
}
