//! Barrier divergence needs one thread of a block that reaches the barrier
//! and one that does not: a barrier under a non-uniform condition that no
//! thread reaches is not divergent, and the kernel gets its race check.
//! Needs z3 on PATH.

mod common;

use common::kernels;
use warpsafe_static::{check_kernel, KernelReport, RaceConfig, Verdict, UNIFORM_BARRIER_REASON};

/// The first kernel of `text`, checked with 4 threads in 1 block.
fn check_4(text: &str) -> KernelReport {
    let mut k = kernels(text)
        .into_iter()
        .next()
        .expect("test kernel lowers");
    k.launch.block = Some([4, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    let r = check_kernel(&k, &RaceConfig::default());
    println!("{:#?}\n{:#?}", r.verdict, r.notes);
    r
}

#[test]
fn a_barrier_no_thread_reaches_is_not_divergent() {
    let r = check_4(
        "__global__ void k(int *o) {
            unsigned tid = threadIdx.x;
            if (tid == 0) { if (tid == 1) __syncthreads(); }
            o[tid] = 1;
        }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn a_barrier_the_preconditions_make_unreachable_is_not_divergent() {
    let r = check_4(
        "__global__ void k(int *o, int n) {
            unsigned tid = threadIdx.x;
            __assume(n < 3);
            if (tid == 0) { if (n > 5) __syncthreads(); }
            o[tid] = 1;
        }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn an_unreachable_barrier_orders_nothing() {
    // Thread 0 writes `o[0]` before the dead barrier, the others after
    // the conditional: a race the dead barrier must not hide.
    let r = check_4(
        "__global__ void k(int *o) {
            unsigned tid = threadIdx.x;
            if (tid == 0) { o[0] = 1; if (tid == 1) __syncthreads(); }
            else { o[0] = 2; }
        }",
    );
    assert!(matches!(r.verdict, Verdict::Racy(_)), "{:?}", r.verdict);
}

#[test]
fn a_barrier_some_threads_reach_is_still_divergent() {
    let r = check_4(
        "__global__ void k(int *o, int n) {
            unsigned tid = threadIdx.x;
            if (tid == 0 && n > 5) { __syncthreads(); }
            o[tid] = 1;
        }",
    );
    match &r.verdict {
        Verdict::Divergent(ds) => {
            let [a, b] = ds[0].threads.expect("a witness");
            // Exactly one of the two threads is thread 0.
            assert_ne!(a.thread_idx[0] == 0, b.thread_idx[0] == 0, "{ds:?}");
        }
        v => panic!("expected DIVERGENT, got {v:?}"),
    }
}

#[test]
fn a_barrier_all_or_none_reach_under_a_divergent_condition_is_unknown() {
    // With 4 threads, `tid < n && n > 100000` holds for all of them or
    // none: not divergent, but the branches cannot be aligned as
    // alternatives either.
    let r = check_4(
        "__global__ void k(int *o, int n) {
            unsigned tid = threadIdx.x;
            if (tid < n) { if (n > 100000) __syncthreads(); }
            o[tid] = 1;
        }",
    );
    match &r.verdict {
        Verdict::Unknown { reason, .. } => assert_eq!(reason, UNIFORM_BARRIER_REASON),
        v => panic!("expected UNKNOWN, got {v:?}"),
    }
}

#[test]
fn a_barrier_in_a_loop_no_thread_enters_is_not_divergent() {
    // Thread 0 reaches the loop but runs no iteration of it.
    let r = check_4(
        "__global__ void k(int *o) {
            unsigned tid = threadIdx.x;
            if (tid == 0) { for (unsigned i = 0; i < tid; i++) __syncthreads(); }
            o[tid] = 1;
        }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn a_loop_some_threads_run_longer_is_still_divergent() {
    let r = check_4(
        "__global__ void k(int *o) {
            unsigned tid = threadIdx.x;
            for (unsigned i = 0; i < tid; i++) __syncthreads();
            o[tid] = 1;
        }",
    );
    assert!(
        matches!(r.verdict, Verdict::Divergent(_)),
        "{:?}",
        r.verdict
    );
}
