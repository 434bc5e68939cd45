//pass
//--blockDim=64 --gridDim=2
// Arithmetic, bitwise, shift, comparison, logical and ternary operators,
// C-style and static_cast conversions, every compound assignment and pre/post
// ++/--, all on thread-private values; each thread writes only its own slots.
__global__ void operatorMix(const int *a, const unsigned *b, int *outI,
                            unsigned *outU, float *outF)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int x = a[gid];
  unsigned u = b[gid];

  int sum = x + 7, diff = x - 3, prod = x * 5, quot = x / 4, rem = x % 3;
  int neg = -x, pos = +x;
  unsigned masked = (u & 0xff00u) | (u ^ 0x0f0fu);
  unsigned flipped = ~masked;
  unsigned hi = u >> 16, lo = u << 16;
  int arith = x >> 2;

  int cmp = (x < 10) + (x <= 10) + (x > 10) + (x >= 10) + (x == 10) + (x != 10);
  bool outside = !(x >= 0 && x < 100) || x == 42;
  int sel = x > 0 ? sum : diff;

  int acc = sel;
  acc += 2; acc -= 1; acc *= 3; acc /= 2; acc %= 1000;
  acc <<= 1; acc >>= 1; acc &= 0x7fff; acc |= 0x10; acc ^= 0x3;

  int i = 0;
  int pre = ++i;      // i == 1
  int post = i++;     // i == 2, post == 1
  int predec = --i;   // i == 1
  int postdec = i--;  // i == 0, postdec == 1

  float f = (float)acc / 3.0f;
  double d = static_cast<double>(prod) * 0.5;
  int back = static_cast<int>(d) + (int)f;
  unsigned char low = (unsigned char)(flipped & 0xffu);

  outI[gid] = back + cmp + pre + post + predec + postdec + quot + rem + neg + pos
            + arith + i + (outside ? 1 : 0);
  outU[gid] = (hi | lo) + static_cast<unsigned>(low);
  outF[gid] = f;
}
