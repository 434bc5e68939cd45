//pass
//--blockDim=4 --gridDim=2
//
// Pointers the host stored in memory: each line of `lines` owns a buffer
// of points, and `rows` holds one row pointer per block. Pointers in
// distinct slots are taken to point to distinct objects (a warning says
// so), so each block writes only its own line's and its own row's buffer.
// Whether a pointer is null is read from its slot.
struct Line {
  float2 ends[2];
  float2 *points;
  int count;
};

__global__ void tessellate(Line *lines, float **rows)
{
  Line *mine = &lines[blockIdx.x];
  float t = threadIdx.x / 3.0f;
  if (lines[blockIdx.x].points != NULL && threadIdx.x < mine->count) {
    float2 a = mine->ends[0];
    float2 b = mine->ends[1];
    lines[blockIdx.x].points[threadIdx.x] =
        make_float2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
  }
  rows[blockIdx.x][threadIdx.x] = t;
}
