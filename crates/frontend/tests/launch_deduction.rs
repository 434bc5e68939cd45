//! Template arguments of a launch that writes none, deduced from the
//! declared types of its arguments (`launch_templates::deduced_args`).

mod common;

use common::lower;

const KERNEL: &str = "template <typename T> __global__ void scale(T *out, const T *in, int n) {\n\
                      int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i] * 2; }\n";

fn names(host: &str) -> (Vec<String>, Vec<String>) {
    let (kernels, messages) = lower(&format!("{KERNEL}{host}\n"));
    (kernels.into_iter().map(|k| k.name).collect(), messages)
}

#[test]
fn a_pointer_argument_s_declared_type_gives_the_parameter() {
    let (kernels, messages) =
        names("int main() { float *a, *b; scale<<<4, 256>>>(a, b, 1024); return 0; }");
    assert_eq!(kernels.len(), 1, "{messages:?}");
    // The host's own template parameter, resolved by its instantiations.
    let (kernels, messages) = names(
        "template <class R> void run(R *d) { R *o = 0; scale<<<1, 32>>>(o, d, 32); }\n\
         template void run<double>(double *);\n\
         template void run<int>(int *);",
    );
    assert_eq!(kernels.len(), 2, "{kernels:?} {messages:?}");
}

#[test]
fn without_an_agreeing_declared_variable_nothing_is_deduced() {
    // Expression arguments only, or two arguments that deduce different
    // types (`float *` from `float **` for `T *`, `float` for `const T *`):
    // no deduction, the kernel asks for its arguments.
    for host in [
        "int main() { float *a; scale<<<4, 256>>>(a + 1, a + 2, 8); return 0; }",
        "int main() { float **a; float *b; scale<<<4, 256>>>(a, b, 8); return 0; }",
    ] {
        let (kernels, messages) = names(host);
        assert!(kernels.is_empty(), "{host}: {kernels:?}");
        assert!(
            messages.iter().any(|m| m.contains("needs a value for `T`")),
            "{host}: {messages:?}"
        );
    }
}
