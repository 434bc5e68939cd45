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

/// A method declared in a class body whose result is a reference or a
/// pointer (`T const &lower() const;`, `T *data();`) is a method, not a
/// field: the class keeps its two fields.
#[test]
fn methods_returning_references_are_not_fields() {
    let (kernels, messages) = common::lower(
        "template <class T> struct I { T low; T up;\n\
         __device__ T const &lower() const; __device__ T *data(); };\n\
         template <class T> __device__ T const &I<T>::lower() const { return low; }\n\
         __global__ void k(I<float> *a, float *o) { o[threadIdx.x] = a[threadIdx.x].lower(); }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let a = k
        .arrays
        .iter()
        .find(|a| a.name == "a")
        .expect("invariant: parameter a");
    assert_eq!(a.slots.len(), 2, "{:?}", a.slots);
}

/// A function returning a reference must return one place: a second
/// `return` (a place chosen by a branch) is refused by name.
#[test]
fn a_reference_from_two_returns_is_refused() {
    let (kernels, messages) = common::lower(
        "__device__ float &pick(float *a, float *b, bool c) { if (c) return a[0]; return b[0]; }\n\
         __global__ void k(float *a, float *b) { pick(a, b, threadIdx.x > 3) = 1; }\n",
    );
    assert!(kernels.is_empty());
    assert!(
        messages
            .iter()
            .any(|m| m.contains("more than one `return`")),
        "{messages:?}"
    );
}
