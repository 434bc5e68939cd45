//pass
//--blockDim=128 --gridDim=4
// Plain structs: a parameter struct passed by value to the kernel, an array of
// structs in global memory, field access with '.' and '->', a struct local,
// a struct returned from a __device__ function; <cstdint> field types.
#include <cstdint>

struct Params {
  float dt;
  float damping;
  int32_t steps;
};

struct Particle {
  float x, y;
  float vx, vy;
  uint32_t id;
};

__device__ Particle advance(Particle p, Params prm)
{
  p.x += p.vx * prm.dt;
  p.y += p.vy * prm.dt;
  p.vx *= prm.damping;
  p.vy = p.vy * prm.damping - 9.81f * prm.dt;
  return p;
}

__global__ void integrate(Particle *particles, Params prm, int64_t *checksum)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  Particle *self = &particles[gid];
  Particle p = *self;

  for (int s = 0; s < prm.steps; ++s)
    p = advance(p, prm);

  self->x = p.x;
  self->y = p.y;
  particles[gid].vx = p.vx;
  particles[gid].vy = p.vy;
  checksum[gid] = (int64_t)self->id * 31 + (int64_t)p.x;
}
