//pass
//--blockDim=64 --gridDim=1
// `(tid * (itid & itid)) + j` reads, to the grammar, like the cast of `+j`
// to a type `tid *(itid &)`; `tid` is a variable, so it is the product
// plus `j`. The front end marks such a name as an expression (a unary `+`
// before it, which changes no value) and parses again.

__global__ void notACast(int *out) {
  int tid = threadIdx.x;
  int itid = tid;
  int j = 64;
  out[(tid * (itid & itid)) + j] = 1;
}
