//! Host parameters fixed by the file's calls (`launch_relation/callers.rs`):
//! a launch whose block size is a parameter of the host function around
//! it takes the constant that every call of that function passes, and no
//! value at all as soon as the calls disagree or the function's name is
//! used otherwise.

mod common;

use common::lower;

const KERNEL: &str =
    "__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n\
     static void launch(float *a, int bs) { k<<<4, bs>>>(a); }\n";

/// The block's x component the launch relation fixes, and the launch's
/// notes.
fn block_x(host: &str) -> (Option<u64>, Vec<String>) {
    let (kernels, messages) = lower(&format!("{KERNEL}{host}\n"));
    let k = kernels
        .first()
        .unwrap_or_else(|| panic!("no kernel: {messages:?}"));
    let notes = k.launch.notes.iter().map(|(n, _)| n.clone()).collect();
    (k.launch.block_parts[0], notes)
}

#[test]
fn every_call_passing_one_constant_fixes_the_parameter() {
    for host in [
        "int main() { float *a = 0; launch(a, 128); }",
        // A local that still holds its initialiser, twice.
        "int main() { float *a = 0; int bs = 128; launch(a, bs); launch(a, bs); }",
        // Through a caller whose own parameter its caller fixes.
        "static void run(float *a, int n) { launch(a, n * 2); }\n\
         int main() { float *a = 0; run(a, 64); }",
        // A prototype before the definition is another declaration.
        "void run(float *a);\n\
         void run(float *a) { const int bs = 128; launch(a, bs); }\n\
         int main() { run(0); }",
    ] {
        let (x, notes) = block_x(host);
        assert_eq!(x, Some(128), "{host}");
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("assuming bs == 128 in launch from the ")),
            "{host}: {notes:?}"
        );
    }
}

#[test]
fn anything_else_leaves_the_parameter_open() {
    for host in [
        // No call in the file: the function is called from elsewhere.
        "int main() { return 0; }",
        // The calls disagree.
        "int main() { float *a = 0; launch(a, 128); launch(a, 256); }",
        // The argument is not a constant there.
        "int main(int argc, char **argv) { float *a = 0; launch(a, argc); }",
        "int main() { float *a = 0; for (int b = 32; b <= 256; b *= 2) launch(a, b); }",
        "int main() { float *a = 0; int bs = 128; bs = read(); launch(a, bs); }",
        // The name is used otherwise: its address may be called anywhere.
        "int main() { float *a = 0; void (*f)(float *, int) = launch; launch(a, 128); f(a, 7); }",
        // A caller whose caller disagrees with itself.
        "static void run(float *a, int n) { launch(a, n); }\n\
         int main() { float *a = 0; run(a, 64); run(a, 128); }",
    ] {
        let (x, notes) = block_x(host);
        assert_eq!(x, None, "{host}");
        assert!(
            !notes.iter().any(|n| n.contains(" in launch from ")),
            "{host}: {notes:?}"
        );
    }
}

#[test]
fn a_parameter_written_before_the_launch_is_not_the_callers_value() {
    let (kernels, _) = lower(
        "__global__ void k(float *a) { a[threadIdx.x] = 0; }\n\
         static void launch(float *a, int bs) { bs = bs * 2; k<<<1, bs>>>(a); }\n\
         int main() { launch(0, 128); }\n",
    );
    assert_eq!(kernels[0].launch.block_parts[0], None);
}
