//! `warpsafe check` exit statuses: 0 for a race-free kernel, 1 for a racy
//! one. Needs z3 on PATH.

mod common;

fn check(name: &str, text: &str) -> (Option<i32>, String) {
    check_with(name, text, &[])
}

fn check_with(name: &str, text: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut flags = vec!["--block-dim", "64", "--grid-dim", "4"];
    flags.extend_from_slice(extra);
    common::run_on("check", name, text, &flags)
}

#[test]
fn race_free_kernel_exits_0() {
    let (code, stdout) = check(
        "drf.cu",
        "__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n",
    );
    assert!(stdout.contains("kernel k: DRF (no data race"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
}

#[test]
fn racy_kernel_exits_1() {
    let (code, stdout) = check(
        "racy.cu",
        "__global__ void k(int *a) { a[0] = threadIdx.x; }\n",
    );
    assert!(stdout.contains("kernel k: RACY"), "{stdout}");
    assert!(stdout.contains("racy.cu:1:"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

#[test]
fn parameter_values_narrow_the_check() {
    // Within one block, threads 0..n write a[tid % 8]: race-free for n = 8 only.
    let text = "__global__ void k(int *a, int n) { if (threadIdx.x < n && blockIdx.x == 0) a[threadIdx.x % 8] = 1; }\n";
    let (code, stdout) = check_with("param8.cu", text, &["--param", "n=8"]);
    assert!(stdout.contains("kernel k: DRF"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_with("param9.cu", text, &["--param", "n=9"]);
    assert!(
        stdout.contains("n=9"),
        "the witness shows the parameter: {stdout}"
    );
    assert_eq!(code, Some(1), "{stdout}");
    let (code, _) = check_with("param_unknown.cu", text, &["--param", "m=1"]);
    assert_eq!(code, Some(2), "an unknown parameter name is unusable input");
}
