//xfail:data-race
//--blockDim=4 --gridDim=2
//
// The racy twin of pointer_in_memory.cu: every block writes the buffer of
// line 0, so threads of different blocks write the same point.
struct Line {
  float2 ends[2];
  float2 *points;
  int count;
};

__global__ void tessellate(Line *lines, float **rows)
{
  float t = threadIdx.x / 3.0f;
  lines[0].points[threadIdx.x] = make_float2(t, t);
  rows[blockIdx.x][threadIdx.x] = t;
}
