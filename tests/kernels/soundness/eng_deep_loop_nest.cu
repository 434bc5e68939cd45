//pass
//--blockDim=2 --gridDim=1
// A 26-deep loop nest (one iteration each): spin-assume's liveness analysis
// once took minutes on it (exponential in the nesting depth), before the
// first state and beyond --timeout; it is now about quadratic.
__global__ void deepLoopNest(int *x)
{
    for (int i0 = 0; i0 < 1; i0++)
      for (int i1 = 0; i1 < 1; i1++)
        for (int i2 = 0; i2 < 1; i2++)
          for (int i3 = 0; i3 < 1; i3++)
            for (int i4 = 0; i4 < 1; i4++)
              for (int i5 = 0; i5 < 1; i5++)
                for (int i6 = 0; i6 < 1; i6++)
                  for (int i7 = 0; i7 < 1; i7++)
                    for (int i8 = 0; i8 < 1; i8++)
                      for (int i9 = 0; i9 < 1; i9++)
                        for (int i10 = 0; i10 < 1; i10++)
                          for (int i11 = 0; i11 < 1; i11++)
                            for (int i12 = 0; i12 < 1; i12++)
                              for (int i13 = 0; i13 < 1; i13++)
                                for (int i14 = 0; i14 < 1; i14++)
                                  for (int i15 = 0; i15 < 1; i15++)
                                    for (int i16 = 0; i16 < 1; i16++)
                                      for (int i17 = 0; i17 < 1; i17++)
                                        for (int i18 = 0; i18 < 1; i18++)
                                          for (int i19 = 0; i19 < 1; i19++)
                                            for (int i20 = 0; i20 < 1; i20++)
                                              for (int i21 = 0; i21 < 1; i21++)
                                                for (int i22 = 0; i22 < 1; i22++)
                                                  for (int i23 = 0; i23 < 1; i23++)
                                                    for (int i24 = 0; i24 < 1; i24++)
                                                      for (int i25 = 0; i25 < 1; i25++)
                                                        x[threadIdx.x] = i0 + i1 + i2 + i3 + i4 + i5 + i6 + i7 + i8 + i9 + i10 + i11 + i12 + i13 + i14 + i15 + i16 + i17 + i18 + i19 + i20 + i21 + i22 + i23 + i24 + i25;
}
