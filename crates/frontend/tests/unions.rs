//! Unions (`unions.rs`): a union is stored as its narrowest member scalar
//! repeated over its size, aligned as its widest member; a union the
//! storage cannot serve (a pointer member, a member with padding) is
//! refused at its use with the reason.

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

fn lower(text: &str) -> (usize, Vec<String>, String) {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("a.cu", text.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    let messages = out.diagnostics.iter().map(|d| d.message.clone()).collect();
    let printed = out
        .module
        .kernels
        .iter()
        .map(|k| warpsafe_ir::print_kernel(k, &sources))
        .collect();
    (out.module.kernels.len(), messages, printed)
}

#[test]
fn a_union_is_its_narrowest_scalar_aligned_as_its_widest_member() {
    // `char c[3]` and `int i`: four chars, aligned to 4, so an array of
    // two of them in a struct after a char starts at byte 4 (sizeof 12).
    let src = "union U { char c[3]; int i; };\n\
               struct S { char tag; U u[2]; };\n\
               __global__ void k(int *out) {\n\
                 __shared__ S s;\n\
                 s.u[1].c[2] = 7;\n\
                 out[threadIdx.x] = sizeof(S);\n\
               }\n";
    let (kernels, messages, printed) = lower(src);
    assert_eq!(kernels, 1, "{messages:?}");
    assert!(
        printed.contains("out[(i64)threadIdx.x]: i32 = 12"),
        "{printed}"
    );
    // The tag, then two unions of four chars: u[1].c[2] is slot 1 + 4 + 2.
    assert!(printed.contains("store.shared s[7]: i8 = 7"), "{printed}");
}

#[test]
fn unions_the_storage_cannot_serve_are_refused() {
    for (src, reason) in [
        (
            "union U { int *p; int i; };\n__global__ void k(int *o) { U u; u.i = 1; o[0] = u.i; }\n",
            "a pointer member `p` in a union",
        ),
        (
            "struct P { char c; int i; };\nunion U { P p; int w[2]; };\n__global__ void k(int *o) { U u; u.w[0] = 1; o[0] = u.w[0]; }\n",
            "a union member `p` with padding",
        ),
    ] {
        let (kernels, messages, _) = lower(src);
        assert_eq!(kernels, 0, "{messages:?}");
        assert!(messages.iter().any(|m| m.contains(reason)), "{reason}: {messages:?}");
    }
}
