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
fn captures_by_value_and_untyped_results_are_refused() {
    // A copy taken where the lambda is made would not see a later write.
    let by_value =
        refusal("int v = 1; auto f = [v](int j) -> int { return v + j; }; v = 2; out[0] = f(1);");
    assert!(
        by_value.iter().any(|m| m.contains("capturing `v`")),
        "{by_value:?}"
    );
    let untyped = refusal("auto f = [&](int j) { return j + 1; }; out[0] = f(1);");
    assert!(
        untyped
            .iter()
            .any(|m| m.contains("without stating its type")),
        "{untyped:?}"
    );
    let passed = refusal("auto f = [&](int j) -> int { return j; }; auto g = f; out[0] = g(1);");
    assert!(
        passed.iter().any(|m| m.contains("other than called")),
        "{passed:?}"
    );
}
