//xfail:front-end
//--blockDim=64 --gridDim=2
// A struct whose field's type comes from a header warpsafe cannot find
// (here simply undeclared): the use of the struct is refused, naming the
// struct, the field and the unknown type.
struct Vertex {
  Float3FromAMissingHeader position;
  float weight;
};

__global__ void fill(Vertex *v)
{
  v[blockIdx.x * blockDim.x + threadIdx.x].weight = 1.0f;
}
