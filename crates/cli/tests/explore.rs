//! `warpsafe explore`: the scoped message-passing litmus of seed 000
//! (Figure 2) synchronises within one block and fails across two blocks;
//! missing dimensions or parameter values are unusable input.

mod common;

const MP: &str = r#"#include <cuda/atomic>
__global__ void mp(int *data, int *flag)
{
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    if (f.load(cuda::memory_order_acquire) == 1)
      assert(data[0] == 42);
  }
}
"#;

fn explore(name: &str, text: &str, flags: &[&str]) -> (Option<i32>, String) {
    common::run_on("explore", name, text, flags)
}

#[test]
fn block_scope_synchronises_within_a_block() {
    let (code, out) = explore("mp1.cu", MP, &["--grid-dim", "1", "--block-dim", "2"]);
    assert!(out.contains("no error in any execution"), "{out}");
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn block_scope_does_not_synchronise_across_blocks() {
    let (code, out) = explore("mp2.cu", MP, &["--grid-dim", "2", "--block-dim", "1"]);
    assert!(out.contains("heterogeneous race"), "{out}");
    assert!(out.contains("data race on `data[0]`"), "{out}");
    assert!(out.contains("assertion failed: data[0] == 42"), "{out}");
    assert_eq!(code, Some(1), "{out}");
}

#[test]
fn symbolic_dimensions_and_missing_parameters_are_unusable() {
    let (code, _) = explore("mp3.cu", MP, &[]);
    assert_eq!(code, Some(2));
    let k = "__global__ void k(int *a, int n) { a[threadIdx.x] = n; }\n";
    let (code, _) = explore("p.cu", k, &["--grid-dim", "1", "--block-dim", "2"]);
    assert_eq!(code, Some(2));
    let (code, out) = explore(
        "p2.cu",
        k,
        &["--grid-dim", "1", "--block-dim", "2", "--param", "n=3"],
    );
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn dpor_and_the_reference_enumerator_agree() {
    let count = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("kernel mp:"))
            .and_then(|l| l.split_whitespace().nth(2).map(str::to_string))
            .unwrap_or_default()
    };
    for grid in [
        ["--grid-dim", "1", "--block-dim", "2"],
        ["--grid-dim", "2", "--block-dim", "1"],
    ] {
        let (c1, dpor) = explore("agree.cu", MP, &grid);
        let mut with_reference = grid.to_vec();
        with_reference.push("--reference");
        let (c2, reference) = explore("agree_ref.cu", MP, &with_reference);
        assert!(dpor.contains("engine: DPOR"), "{dpor}");
        assert!(reference.contains("engine: reference"), "{reference}");
        assert_eq!(c1, c2);
        assert_eq!(count(&dpor), count(&reference), "{dpor}\n{reference}");
    }
}
