//! What nvcc's implicit `<cuda_runtime.h>` gives every file: the runtime
//! version (code that guards its kernels with `#if CUDART_VERSION >= 2020`,
//! as cuda-samples' threadFenceReduction does around its kernel header,
//! keeps them instead of compiling to a file with no kernel) and the C
//! math library's macros (`INFINITY`, `M_PI`: llm.c's kernels use them
//! without including `<math.h>`).

mod common;

#[test]
fn kernels_behind_a_runtime_version_check_are_kept() {
    let (kernels, messages) = common::lower(
        "#if CUDART_VERSION >= 2020\n\
         __global__ void k(int *a) { a[threadIdx.x] = 0; }\n\
         #else\n\
         #error CUDA 2.2 is required\n\
         #endif\n",
    );
    assert!(messages.is_empty(), "{messages:?}");
    assert_eq!(kernels.len(), 1);
}

#[test]
fn the_runtime_version_is_the_compiler_version() {
    let (kernels, messages) = common::lower(
        "#if CUDART_VERSION != __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10\n\
         #error mismatched versions\n\
         #endif\n\
         __global__ void k(int *a) { a[threadIdx.x] = 0; }\n",
    );
    assert!(messages.is_empty(), "{messages:?}");
    assert_eq!(kernels.len(), 1);
}

#[test]
fn math_macros_come_with_the_runtime_header() {
    let (kernels, messages) = common::lower(
        "__global__ void k(float *a) { a[threadIdx.x] = -INFINITY; a[threadIdx.x + 64] = (float)M_PI; }\n",
    );
    assert!(messages.is_empty(), "{messages:?}");
    assert_eq!(kernels.len(), 1);
}
