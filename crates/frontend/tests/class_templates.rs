//! Class templates' static methods called through the class
//! (`Unit<T>::one()`, `class_members.rs`): the specialisation for the
//! arguments is the one called, a static method defined outside the class
//! is found, and a method that is not `static` is
//! refused, since there is no object to call it on.

mod common;

use common::lower;

const CLASSES: &str = "template <class T> struct Unit { static __device__ T one() { return 2; } static __device__ T two(); };\n\
    template <class T> __device__ T Unit<T>::two() { return 2 * Unit<T>::one(); }\n\
    template <> struct Unit<int> { static __device__ int one() { return 1; } int get() { return 3; } };\n";

#[test]
fn a_static_method_is_called_through_its_specialisation() {
    let (kernels, messages) =
        lower(&format!("{CLASSES}__global__ void k(int *a, float *b) {{ a[threadIdx.x] = Unit<int>::one(); b[threadIdx.x] = Unit<float>::one() + Unit<float>::two(); }}\n"));
    assert_eq!(kernels.len(), 1, "{messages:?}");
    let mut sources = warpsafe_source::SourceMap::new();
    sources.add(warpsafe_source::SourceFile::new(
        "a.cu",
        String::new(),
        false,
    ));
    let ir = warpsafe_ir::print_kernel(&kernels[0], &sources);
    // `Unit<int>` is the specialisation (1), `Unit<float>` the primary
    // template (2, converted to float); `two`, static by its declaration
    // in the class, is defined outside it.
    assert!(ir.contains("one.ret = 1 "), "{ir}");
    assert!(ir.contains("one.ret.1 = 2.0 "), "{ir}");
}

#[test]
fn a_method_that_is_not_static_needs_an_object() {
    let (kernels, messages) = lower(&format!(
        "{CLASSES}__global__ void k(int *a) {{ a[threadIdx.x] = Unit<int>::get(); }}\n"
    ));
    assert!(kernels.is_empty(), "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("without an object, which is not a `static` method")),
        "{messages:?}"
    );
}
