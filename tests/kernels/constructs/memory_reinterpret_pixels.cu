//pass
//--blockDim=64 --gridDim=4
// An `unsigned int` image read and written as `uchar4` pixels: a pixel
// read is one word load split into bytes, a whole-pixel write one word
// store of the four bytes composed. Each thread converts its own pixel.
__global__ void toGray(unsigned int *image, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar4 *pix = (uchar4 *)image;
  if (i < n) {
    uchar4 p = pix[i];
    unsigned char g = (p.x + p.y + p.z) / 3;
    pix[i] = make_uchar4(g, g, g, p.w);
  }
}
