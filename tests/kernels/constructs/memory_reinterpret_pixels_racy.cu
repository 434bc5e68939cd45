//xfail:data-race
//--blockDim=64 --gridDim=4
// The grey pixel written one place to the right: thread i writes the word
// that thread i+1 reads.
__global__ void toGray(unsigned int *image, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar4 *pix = (uchar4 *)image;
  if (i + 1 < n) {
    uchar4 p = pix[i];
    unsigned char g = (p.x + p.y + p.z) / 3;
    pix[i + 1] = make_uchar4(g, g, g, p.w);
  }
}
