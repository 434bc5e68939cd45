//! Assertion checking in `check_kernel` (one symbolic thread per
//! assertion), on kernels compiled by the real front end. Needs z3 on PATH.

mod common;

use warpsafe_static::{check_kernel, AssertOutcome, Certainty, RaceConfig};

/// The outcome of every assertion of the first kernel, launched as 4
/// blocks of 64 threads.
fn outcomes(text: &str) -> Vec<AssertOutcome> {
    let mut k = common::kernels(&format!("#include <assert.h>\n{text}"))
        .into_iter()
        .next()
        .expect("test kernel lowers");
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([4, 1, 1]);
    let r = check_kernel(&k, &RaceConfig::default());
    println!("{:#?}", r.asserts);
    r.asserts.into_iter().map(|a| a.outcome).collect()
}

#[test]
fn facts_about_every_thread_hold() {
    let got = outcomes(
        "__global__ void k(int *a, int n) {
            unsigned t = threadIdx.x;
            assert(t < blockDim.x);
            if (n > 5) { assert(n >= 6); }
            for (int i = 0; i < n; i++) { assert(i >= 0 && i < n); }
        }",
    );
    assert_eq!(got, vec![AssertOutcome::Holds; 3]);
}

#[test]
fn a_violated_assertion_fails_with_the_thread_that_violates_it() {
    let got = outcomes(
        "__global__ void k(int *a) {
            assert(threadIdx.x != 17 || blockIdx.x != 2);
        }",
    );
    let [AssertOutcome::Fails { certainty, witness }] = got.as_slice() else {
        panic!("{got:?}")
    };
    assert_eq!(*certainty, Certainty::Provable);
    let w = witness.as_ref().expect("witness");
    assert_eq!(w.thread.thread_idx[0], 17);
    assert_eq!(w.thread.block_idx[0], 2);
}

#[test]
fn a_later_assumption_does_not_prove_an_earlier_assertion() {
    let got = outcomes(
        "__global__ void k(int *a, int n) {
            assert(n < 10);
            __assume(n < 5);
            assert(n < 10);
        }",
    );
    assert!(matches!(got[0], AssertOutcome::Fails { .. }), "{got:?}");
    assert_eq!(got[1], AssertOutcome::Holds);
}

#[test]
fn an_assertion_on_memory_contents_may_only_possibly_fail() {
    let got = outcomes(
        "__global__ void k(int *a) {
            a[threadIdx.x] = 1;
            assert(a[threadIdx.x] == 1);
        }",
    );
    let [AssertOutcome::Fails { certainty, .. }] = got.as_slice() else {
        panic!("{got:?}")
    };
    let Certainty::Possible { reasons } = certainty else {
        panic!("{certainty:?}")
    };
    assert!(
        reasons.iter().any(|r| r.contains("loaded from `a`")),
        "{reasons:?}"
    );
}

/// An assertion whose condition folds to `true` holds without a solver:
/// with a solver that cannot start, it still holds (a query would make it
/// UNKNOWN), and the kernel, with nothing else to ask, is DRF.
#[test]
fn an_assertion_that_folds_to_true_needs_no_solver() {
    let mut k = common::kernels(
        "__device__ int five() { return 5; }\n\
         __global__ void k() { int x = five(); __assert(x == 5); }",
    )
    .into_iter()
    .next()
    .expect("test kernel lowers");
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([4, 1, 1]);
    let mut config = RaceConfig::default();
    config.solver = config.solver.with_program("/nonexistent/z3");
    let r = check_kernel(&k, &config);
    assert_eq!(r.asserts.len(), 1);
    assert_eq!(r.asserts[0].outcome, AssertOutcome::Holds);
    assert_eq!(r.verdict, warpsafe_static::Verdict::Drf);
}
