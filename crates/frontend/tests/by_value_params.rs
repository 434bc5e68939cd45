//! Struct parameters passed by value with a large array field: read like
//! `__constant__` memory when `const`, refused otherwise.

mod common;

use common::lower;
use warpsafe_ir::MemSpace;

const TABLE: &str = "struct T { float w[512]; };\n";

#[test]
fn a_const_parameter_s_array_field_is_constant_memory() {
    let (kernels, messages) = lower(&format!(
        "{TABLE}__global__ void k(__grid_constant__ const T t, float *o) {{ o[threadIdx.x] = t.w[threadIdx.x]; }}\n"
    ));
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let table = k
        .arrays
        .iter()
        .find(|a| a.name == "t.w")
        .unwrap_or_else(|| panic!("{:?}", k.arrays));
    assert_eq!(table.space, MemSpace::Constant);
    assert_eq!(table.dims, vec![512]);
}

#[test]
fn a_parameter_that_may_be_written_is_refused_by_name() {
    let (kernels, messages) = lower(&format!(
        "{TABLE}__global__ void k(T t, float *o) {{ t.w[0] = 1; o[threadIdx.x] = t.w[threadIdx.x]; }}\n"
    ));
    assert!(kernels.is_empty());
    assert!(
        messages.iter().any(|m| m.contains("that is not `const`")),
        "{messages:?}"
    );
}
