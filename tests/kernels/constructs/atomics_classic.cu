//pass
//--blockDim=128 --gridDim=4
// The CUDA atomic function family on global and shared memory: atomicAdd,
// atomicSub, atomicExch, atomicMin, atomicMax, atomicInc, atomicDec,
// atomicCAS (in a saturating-add loop), atomicAnd, atomicOr and atomicXor.
// Concurrent accesses to shared counters are all atomic; the shared bins are
// reset before, and read after, a barrier.
__global__ void atomicFamily(const int *in, int *ic, unsigned *uc, int *hist, int *prevOut)
{
  __shared__ int sBins[16];
  unsigned tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  if (tid < 16)
    sBins[tid] = 0;
  __syncthreads();

  int v = in[gid];
  atomicAdd(&ic[0], v);
  atomicSub(&ic[1], v);
  atomicMin(&ic[2], v);
  atomicMax(&ic[3], v);
  int prev = atomicExch(&ic[4], gid);
  unsigned ticket = atomicInc(&uc[0], 1023u);
  atomicDec(&uc[1], 63u);
  atomicAnd(&uc[2], (unsigned)v);
  atomicOr(&uc[3], 1u << (tid % 32));
  atomicXor(&uc[4], ticket);

  int seen = atomicAdd(&ic[5], 0);
  int assumed;
  do {
    assumed = seen;
    seen = atomicCAS(&ic[5], assumed, min(assumed + v, 1 << 20));
  } while (seen != assumed);

  atomicAdd(&sBins[v & 15], 1);
  __syncthreads();
  if (tid < 16)
    atomicAdd(&hist[tid], sBins[tid]);
  prevOut[gid] = prev;
}
