//! `const` scalars of the launching function (`host_writes.rs`): passing
//! one bare to a function whose parameters are not known (a library
//! call that may take a non-const reference) cannot write it, so the
//! launch relation keeps its value; a plain local passed the same way
//! may have changed.

mod common;

use common::first_relation;

const KERNEL: &str =
    "__global__ void k(float *d, int width) { d[blockIdx.x * 16 + threadIdx.x] = width; }\n";

fn relation(host: &str) -> Option<String> {
    first_relation(&format!("{KERNEL}{host}\n"))
}

#[test]
fn a_const_passed_to_an_unknown_function_keeps_its_value() {
    let host = "void run(float *d) {\n\
        const int nx = 2048;\n\
        cudaMallocArray(&array, &desc, nx, nx);\n\
        k<<<nx / 16, 16>>>(d, nx);\n}";
    assert_eq!(relation(host).as_deref(), Some("width == 2048"));
    // A `const` by-value parameter, fixed by the file's one call.
    let param = "static void run(float *d, const int nx) {\n\
        fill(nx);\n\
        k<<<nx / 16, 16>>>(d, nx);\n}\n\
        int main() { run(0, 512); }";
    assert_eq!(relation(param).as_deref(), Some("width == 512"));
}

#[test]
fn a_plain_local_passed_to_an_unknown_function_may_have_changed() {
    let host = "void run(float *d) {\n\
        int nx = 2048;\n\
        cudaMallocArray(&array, &desc, nx, nx);\n\
        k<<<nx / 16, 16>>>(d, nx);\n}";
    let text = relation(host).unwrap_or_default();
    assert!(!text.contains("2048"), "{text}");
    // A local that only shares the name of a `const` elsewhere.
    let shadowed = "void run(float *d, bool big) {\n\
        if (big) { const int nx = 4096; k<<<nx / 16, 16>>>(d, nx); }\n\
        int nx = 2048;\n\
        cudaMallocArray(&array, &desc, nx, nx);\n\
        k<<<nx / 16, 16>>>(d, nx);\n}";
    let text = relation(shadowed).unwrap_or_default();
    assert!(!text.contains("2048"), "{text}");
}
