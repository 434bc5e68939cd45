//! Host structs built with a brace list (`launch_relation/brace_init.rs`):
//! a field read translates to its element (0 past the list's end), and a
//! struct passed by value gives each field of the kernel's flattened
//! parameter that value; a write to the struct, nested braces, a union, a
//! non-scalar field, a method or a default member initialiser drops it.

mod common;

use common::first_relation;

const TYPES: &str = "struct Ext { unsigned w; unsigned h; unsigned d; };\n\
     struct Ptr { unsigned w; float *p; };\n\
     union Both { unsigned w; float f; };\n\
     struct Dflt { unsigned w; unsigned h = 5; };\n\
     struct Meth { unsigned w; unsigned h; void set(unsigned v) { w = v; } };\n";

/// The launch relation of the first kernel of `kernels` launched by
/// `host` (the body of `void run(float *out, unsigned n)`).
fn relation(kernels: &str, host: &str) -> Option<String> {
    first_relation(&format!(
        "{TYPES}{kernels}\nvoid run(float *out, unsigned n) {{ {host} }}\n"
    ))
}

const BY_VALUE: &str = "__global__ void k(Ext e, float *o) { o[threadIdx.x % e.w] = e.h + e.d; }";
const SCALAR: &str = "__global__ void k(unsigned w, float *o) { o[threadIdx.x % w] = 0; }";

#[test]
fn a_brace_list_gives_the_fields_of_a_struct_passed_by_value() {
    for host in [
        "Ext e = {1024, 7}; k<<<n, 32>>>(e, out);",
        "struct Ext e = {1024, 7}; k<<<n, 32>>>(e, out);",
        "Ext e{1024, 7}; k<<<n, 32>>>(e, out);",
        // Declared again in a sibling block.
        "{ Ext e = {1, 1, 1}; k<<<n, 32>>>(e, out); } { Ext e = {1024, 7}; k<<<n, 32>>>(e, out); }",
    ] {
        let rel = relation(BY_VALUE, host);
        let expected = if host.starts_with('{') {
            "e.w == 1u && e.h == 1u && e.d == 1u || e.w == 1024u && e.h == 7u && e.d == 0u"
        } else {
            "e.w == 1024u && e.h == 7u && e.d == 0u"
        };
        assert_eq!(rel.as_deref(), Some(expected), "{host}");
    }
    // A field read as an argument.
    let rel = relation(SCALAR, "Ext e = {512 / 2, 7}; k<<<n, 32>>>(e.w, out);");
    assert_eq!(rel.as_deref(), Some("w == 256u"));
}

#[test]
fn a_struct_that_may_have_changed_or_is_not_flat_says_nothing() {
    for (kernel, host) in [
        // Written after the list: a field, the whole, its address.
        (
            BY_VALUE,
            "Ext e = {1024, 7}; e.w = n; k<<<n, 32>>>(e, out);",
        ),
        (
            BY_VALUE,
            "Ext e = {1024, 7}; e = Ext{n, n}; k<<<n, 32>>>(e, out);",
        ),
        (
            BY_VALUE,
            "Ext e = {1024, 7}; Ext *p = &e; p->w = n; k<<<n, 32>>>(e, out);",
        ),
        // Not a brace list; a designated initialiser.
        (
            BY_VALUE,
            "Ext f = {1024, 7}; Ext e = f; k<<<n, 32>>>(e, out);",
        ),
        (BY_VALUE, "Ext e = {.w = 1024}; k<<<n, 32>>>(e, out);"),
        // A union; a struct with a pointer field.
        (SCALAR, "Both b = {1024}; k<<<n, 32>>>(b.w, out);"),
        (SCALAR, "Ptr q = {1024, out}; k<<<n, 32>>>(q.w, out);"),
        // A default member initialiser fills `h`; a method may write `w`.
        (SCALAR, "Dflt q = {1024}; k<<<n, 32>>>(q.h, out);"),
        (
            SCALAR,
            "Meth q = {1024, 1}; q.set(n); k<<<n, 32>>>(q.w, out);",
        ),
    ] {
        assert_eq!(relation(kernel, host), None, "{host}");
    }
}
