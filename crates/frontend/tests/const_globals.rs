//! File-scope `const` variables read in device code: integers are
//! constants (usable in array sizes); floating-point ones with an
//! initialiser, which nvcc lets device code read, are read-only
//! `__constant__` arrays holding their value.

mod common;

use common::lower;

#[test]
fn a_file_scope_const_float_is_a_constant_array_with_its_value() {
    let (kernels, messages) = lower(
        "const float sqrt_2PIf = 2.5f;\nconst int N = 4;\n\
         __device__ float scale(float v) { return v / sqrt_2PIf; }\n\
         __global__ void k(float *out) { out[threadIdx.x] = scale(out[threadIdx.x]) * N; }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let c = k
        .arrays
        .iter()
        .find(|a| a.name == "sqrt_2PIf")
        .expect("the constant is an array");
    assert_eq!(c.space, warpsafe_ir::MemSpace::Constant);
    assert!(
        matches!(c.init.as_deref(), Some([warpsafe_ir::Const::Float(v)]) if *v == 2.5),
        "{:?}",
        c.init
    );
}

#[test]
fn a_const_float_without_an_initialiser_stays_undeclared_in_device_code() {
    let (kernels, messages) = lower(
        "extern const float scale;\n\
         __global__ void k(float *out) { out[threadIdx.x] = scale; }\n",
    );
    assert!(kernels.is_empty());
    assert!(messages.iter().any(|m| m.contains("scale")), "{messages:?}");
}
