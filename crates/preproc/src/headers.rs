//! The built-in system headers: small, real declarations (typedefs, limits,
//! constants) for the headers CUDA kernels include, stored in `src/headers/`.
//!
//! Invariants:
//! - Headers never define kernel builtins (`threadIdx`, `atomicAdd`,
//!   `__syncthreads`, `assert`, ...) as macros: the lowering stage recognises
//!   those by name, so their headers are (nearly) empty.
//! - Every non-empty header has an include guard, so repeated inclusion is
//!   cheap and harmless.
//! - `lookup` is a pure function of the name as written in the directive.

const EMPTY: &str = include_str!("headers/empty.h");
const STDDEF: &str = include_str!("headers/stddef.h");
const STDINT: &str = include_str!("headers/stdint.h");
const LIMITS: &str = include_str!("headers/limits.h");
const FLOAT: &str = include_str!("headers/float.h");
const STDIO: &str = include_str!("headers/stdio.h");
const STDLIB: &str = include_str!("headers/stdlib.h");
const STRING: &str = include_str!("headers/string.h");
const TIME: &str = include_str!("headers/time.h");
const MATH: &str = include_str!("headers/math.h");
const MATH_CONSTANTS: &str = include_str!("headers/math_constants.h");
const CUDA: &str = include_str!("headers/cuda.h");
const CUFFT: &str = include_str!("headers/cufft.h");
const CUDA_RUNTIME: &str = include_str!("headers/cuda_runtime.h");
const CUDA_RUNTIME_API: &str = include_str!("headers/cuda_runtime_api.h");
const HELPER_CUDA: &str = include_str!("headers/helper_cuda.h");
const HELPER_FUNCTIONS: &str = include_str!("headers/helper_functions.h");

/// The text of the built-in header `name`, if there is one.
pub(crate) fn lookup(name: &str) -> Option<&'static str> {
    let text = match name {
        "cuda_runtime.h" => CUDA_RUNTIME,
        "cuda_runtime_api.h" => CUDA_RUNTIME_API,
        "cuda.h" => CUDA,
        "cufft.h" => CUFFT,
        "cufftXt.h" => "#include <cufft.h>\n",
        "helper_cuda.h" => HELPER_CUDA,
        "helper_functions.h" => HELPER_FUNCTIONS,
        "math_constants.h" => MATH_CONSTANTS,
        "stddef.h" => STDDEF,
        "cstddef" => "#include <stddef.h>\n",
        "stdint.h" => STDINT,
        "cstdint" => "#include <stdint.h>\n",
        "limits.h" => LIMITS,
        "climits" => "#include <limits.h>\n",
        "float.h" => FLOAT,
        "cfloat" => "#include <float.h>\n",
        "stdio.h" => STDIO,
        "cstdio" => "#include <stdio.h>\n",
        "stdlib.h" => STDLIB,
        "cstdlib" => "#include <stdlib.h>\n",
        "string.h" => STRING,
        "cstring" => "#include <string.h>\n",
        "time.h" => TIME,
        "ctime" => "#include <time.h>\n",
        "math.h" => MATH,
        "cmath" => "#include <math.h>\n",
        // The C++ library headers bring the C basics with them, as
        // libstdc++'s do, so code relying on that still compiles.
        "iostream" | "vector" | "algorithm" => {
            "#include <stddef.h>\n#include <stdint.h>\n#include <limits.h>\n#include <stdlib.h>\n"
        }
        "device_launch_parameters.h"
        | "device_functions.h"
        | "cuda/atomic"
        | "cuda/std/atomic"
        | "cooperative_groups.h"
        | "cooperative_groups/reduce.h"
        | "assert.h"
        | "cassert"
        | "cuda_fp16.h"
        | "cuda_bf16.h"
        // Warp matrix fragments and operations are built into the front end.
        | "mma.h"
        // Asynchronous copies, per-thread pipelines and block barriers
        // are built into the front end (`lower::async_copy`).
        | "cuda/pipeline"
        | "cuda/barrier"
        | "cooperative_groups/memcpy_async.h"
        // cuRAND's states and generators are built into the front end.
        | "curand_kernel.h"
        | "curand.h" => EMPTY,
        _ if name.starts_with("sm_") && name.ends_with("_atomic_functions.h") => EMPTY,
        _ => return None,
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_unknown_names() {
        assert!(lookup("stdint.h").is_some_and(|t| t.contains("typedef unsigned int uint32_t;")));
        assert!(lookup("sm_60_atomic_functions.h").is_some());
        assert!(lookup("cuda/std/atomic").is_some());
        assert!(lookup("mma.h").is_some());
        assert!(lookup("cuda/pipeline").is_some());
        assert!(lookup("cufftXt.h").is_some_and(|t| t.contains("<cufft.h>")));
        assert!(lookup("cufft.h").is_some_and(|t| t.contains("typedef float2 cufftComplex;")));
        assert!(lookup("no_such_header.h").is_none());
        assert!(lookup("sm_.h").is_none());
    }
}
