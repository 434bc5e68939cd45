// warpsafe built-in header: intentionally (nearly) empty. The names it would
// declare (threadIdx, atomicAdd, __syncthreads, assert, cooperative groups,
// cuda::atomic, ...) are recognised by name by the lowering stage.
