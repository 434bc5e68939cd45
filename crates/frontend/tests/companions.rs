//! The program's other files (`companion.rs`, `launch_relation/callers.rs`):
//! a launching function that the file never calls takes the constants of
//! the calls in the files that declare it without defining it; a wrapper
//! other files cannot call by that name, a file with its own function of
//! the name, or calls that disagree give nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_source::{SourceFile, SourceMap};

/// Files served from memory.
struct Files(HashMap<PathBuf, String>);

impl SourceLoader for Files {
    fn load(&self, path: &Path) -> Option<String> {
        self.0.get(path).cloned()
    }
}

const KERNEL: &str = "__global__ void k(float *d, unsigned w) { d[threadIdx.x % w] = 0; }\n";

/// The launch relation of `k`, launched by `wrapper` in `a.cu`, with
/// `main.cpp` holding `other`.
fn relation(wrapper: &str, other: &str) -> Option<String> {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("a.cu", format!("{KERNEL}{wrapper}"), false));
    let files = Files(HashMap::from([(
        PathBuf::from("main.cpp"),
        other.to_string(),
    )]));
    let opts = Options {
        companions: vec![PathBuf::from("main.cpp")],
        ..Options::default()
    };
    let out = compile(main, &mut sources, &opts, &files);
    let k = out.module.kernels.first().expect("the kernel lowers");
    k.launch
        .relation
        .as_ref()
        .map(|r| warpsafe_ir::print_expr(k, r))
}

const WRAPPER: &str = "extern \"C\" void run(float *d, unsigned w) { k<<<1, 256>>>(d, w); }\n";
const DECLARED: &str = "extern \"C\" void run(float *d, unsigned w);\n";

#[test]
fn calls_in_a_file_that_declares_the_wrapper_fix_its_parameters() {
    let other = format!(
        "{DECLARED}const unsigned size = 64;\n\
         void a(float *d) {{ run(d, size); }}\nvoid b(float *d) {{ run(d, 64); }}\n"
    );
    assert_eq!(relation(WRAPPER, &other).as_deref(), Some("w == 64u"));
}

#[test]
fn wrappers_other_files_cannot_call_or_calls_that_disagree_give_nothing() {
    let calls = format!("{DECLARED}void a(float *d) {{ run(d, 64); }}\n");
    for (wrapper, other) in [
        // `static`, or in an anonymous or a named namespace.
        (
            "static void run(float *d, unsigned w) { k<<<1, 256>>>(d, w); }\n".to_string(),
            calls.clone(),
        ),
        (format!("namespace {{ {WRAPPER} }}"), calls.clone()),
        (format!("namespace n {{ {WRAPPER} }}"), calls.clone()),
        // The other file defines its own `run`; calls it without a
        // declaration; passes two widths (not both powers of two, which
        // would say that much, `power_of_two.rs`).
        (
            WRAPPER.to_string(),
            "void run(float *d, unsigned w) {}\nvoid a(float *d) { run(d, 64); }\n".to_string(),
        ),
        (WRAPPER.to_string(), "void a(float *d) { run(d, 64); }\n".to_string()),
        (
            WRAPPER.to_string(),
            format!("{DECLARED}void a(float *d) {{ run(d, 64); }}\nvoid b(float *d) {{ run(d, 48); }}\n"),
        ),
    ] {
        assert_eq!(relation(&wrapper, &other), None, "{wrapper} | {other}");
    }
}

#[test]
fn a_wrapper_the_file_calls_keeps_the_files_calls() {
    let wrapper = format!("{WRAPPER}void go(float *d) {{ run(d, 16); }}\n");
    let other = format!("{DECLARED}void a(float *d) {{ run(d, 64); }}\n");
    assert_eq!(relation(&wrapper, &other).as_deref(), Some("w == 16u"));
}
