//! Lambdas (`lower::lambda`): captures by reference are inlined at each
//! call; what the model cannot express is refused by name.

mod common;

use common::lower;

fn refusal(body: &str) -> Vec<String> {
    let (kernels, messages) = lower(&format!("__global__ void k(int *out) {{ {body} }}\n"));
    assert!(kernels.is_empty(), "lowered: {body}");
    messages
}

#[test]
fn captures_by_value_are_refused() {
    // A copy taken where the lambda is made would not see a later write.
    let by_value =
        refusal("int v = 1; auto f = [v](int j) -> int { return v + j; }; v = 2; out[0] = f(1);");
    assert!(
        by_value.iter().any(|m| m.contains("capturing `v`")),
        "{by_value:?}"
    );
    let pointer = refusal("auto f = [&](int j) { return &out[j]; }; *f(1) = 2;");
    assert!(
        pointer
            .iter()
            .any(|m| m.contains("a deduced return type `int*`")),
        "{pointer:?}"
    );
    let passed = refusal("auto f = [&](int j) -> int { return j; }; auto g = f; out[0] = g(1);");
    assert!(
        passed.iter().any(|m| m.contains("other than called")),
        "{passed:?}"
    );
}

/// A lambda without `-> T`, and a function declared `auto`, return the
/// type of their first `return`'s value, as C++ deduces it; later
/// `return`s convert to it.
#[test]
fn deduced_return_types_are_the_first_returns() {
    let (kernels, messages) = lower(
        "__device__ auto twice(int x) { if (x > 3) return x * 2; return x; }\n\
         __global__ void k(int *out, float *f) {\n\
         auto half = [](float v) { return v * 0.5f; };\n\
         out[threadIdx.x] = twice(threadIdx.x);\n\
         f[threadIdx.x] = half(f[threadIdx.x]); }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let ty = |name: &str| {
        k.vars
            .iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no variable {name}"))
            .ty
    };
    assert_eq!(ty("twice.ret"), warpsafe_ir::ScalarTy::I32);
    assert_eq!(ty("lambda.ret"), warpsafe_ir::ScalarTy::F32);
}
