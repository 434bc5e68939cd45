//pass
//--blockDim=64 --gridDim=4
// Scoped atomic functions: the _block variants only on locations private to the
// calling block (its slice of perBlockI / perBlockU), the _system variants on
// grid-wide counters that the host may watch through mapped memory.
__global__ void scopedAtomics(const int *in, int *perBlockI, unsigned *perBlockU,
                              int *sysI, unsigned *sysU)
{
  unsigned tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int v = in[gid];
  int *bi = perBlockI + 6 * blockIdx.x;
  unsigned *bu = perBlockU + 5 * blockIdx.x;

  atomicAdd_block(&bi[0], v);
  atomicSub_block(&bi[1], v);
  atomicMin_block(&bi[2], v);
  atomicMax_block(&bi[3], v);
  atomicExch_block(&bi[4], gid);
  atomicCAS_block(&bi[5], 0, gid + 1);
  atomicInc_block(&bu[0], 255u);
  atomicDec_block(&bu[1], 255u);
  atomicAnd_block(&bu[2], (unsigned)v);
  atomicOr_block(&bu[3], 1u << (tid % 32));
  atomicXor_block(&bu[4], (unsigned)gid);

  atomicAdd_system(&sysI[0], v);
  atomicSub_system(&sysI[1], v);
  atomicMin_system(&sysI[2], v);
  atomicMax_system(&sysI[3], v);
  atomicExch_system(&sysI[4], gid);
  atomicCAS_system(&sysI[5], 0, gid + 1);
  atomicInc_system(&sysU[0], 1023u);
  atomicDec_system(&sysU[1], 1023u);
  atomicAnd_system(&sysU[2], (unsigned)v);
  atomicOr_system(&sysU[3], 1u << (tid % 32));
  atomicXor_system(&sysU[4], (unsigned)gid);
}
