//! Litmus tests compiled through the real front end, explored by the
//! reference enumerator.

mod common;

use common::{results, run};
use warpsafe_mc::RaceKind;

use common::{HEADER, MP};

fn src(body: &str) -> String {
    format!("{HEADER}{body}")
}

#[test]
fn sb_relaxed_has_four_executions() {
    let (k, ex) = run(
        &src(r#"
__global__ void sb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    if (threadIdx.x == 0) { X.store(1, RLX); r[0] = Y.load(RLX); }
    else { Y.store(1, RLX); r[1] = X.load(RLX); }
}"#),
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 4);
    let r = results(&k, &ex, 2);
    assert!(r.contains(&vec![Some(0), Some(0)]));
    assert!(ex.races().is_empty());
}

#[test]
fn sb_seq_cst_forbids_both_zero() {
    let (k, ex) = run(
        &src(r#"
__global__ void sb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    if (threadIdx.x == 0) { X.store(1, SC); r[0] = Y.load(SC); }
    else { Y.store(1, SC); r[1] = X.load(SC); }
}"#),
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 3);
    assert!(!results(&k, &ex, 2).contains(&vec![Some(0), Some(0)]));
}

#[test]
fn sb_with_sc_fences_forbids_both_zero() {
    let (k, ex) = run(
        &src(r#"
__global__ void sb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    if (threadIdx.x == 0) { X.store(1, RLX); __threadfence(); r[0] = Y.load(RLX); }
    else { Y.store(1, RLX); __threadfence(); r[1] = X.load(RLX); }
}"#),
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 3);
    assert!(!results(&k, &ex, 2).contains(&vec![Some(0), Some(0)]));
}

#[test]
fn lb_two_threads_has_three_executions() {
    let (k, ex) = run(
        &src(r#"
__global__ void lb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    if (threadIdx.x == 0) { r[0] = X.load(RLX); Y.store(1, RLX); }
    else { r[1] = Y.load(RLX); X.store(1, RLX); }
}"#),
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 3);
    assert!(!results(&k, &ex, 2).contains(&vec![Some(1), Some(1)]));
}

#[test]
fn lb_ring_of_three_has_seven_executions() {
    let (k, ex) = run(
        &src(r#"
__global__ void lb3(int *x, int *r) {
    int t = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> A(x[t]), B(x[(t + 1) % 3]);
    r[t] = A.load(RLX);
    B.store(1, RLX);
}"#),
        1,
        3,
    );
    assert_eq!(ex.executions.len(), 7);
    assert!(!results(&k, &ex, 3).contains(&vec![Some(1), Some(1), Some(1)]));
}

#[test]
fn mp_release_acquire_never_reads_stale_data() {
    let (k, ex) = run(&src(&MP.replace("SCOPE", "device")), 1, 2);
    let r = results(&k, &ex, 2);
    assert!(r.contains(&vec![Some(1), Some(1)]));
    assert!(r.contains(&vec![Some(0), Some(-1)]));
    assert!(!r.contains(&vec![Some(1), Some(0)]), "{r:?}");
    assert!(ex.races().is_empty(), "{:?}", ex.races());
    // Across blocks, device scope synchronises as well.
    let (k, ex) = run(&src(&MP.replace("SCOPE", "device")), 2, 1);
    assert!(!results(&k, &ex, 2).contains(&vec![Some(1), Some(0)]));
    assert!(ex.races().is_empty());
}

#[test]
fn mp_relaxed_allows_stale_data() {
    let (k, ex) = run(
        &src(r#"
__global__ void mp(int *data, int *flag, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(*flag), D(*data);
    if (threadIdx.x == 0) { D.store(1, RLX); F.store(1, RLX); }
    else {
        int a = F.load(RLX);
        int b = D.load(RLX);
        r[0] = a;
        r[1] = b;
    }
}"#),
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 4);
    assert!(results(&k, &ex, 2).contains(&vec![Some(1), Some(0)]));
    assert!(ex.races().is_empty());
}

#[test]
fn mp_block_scope_synchronises_only_within_a_block() {
    // Seed 000 Figure 2 (i = j): one block, block scope suffices.
    let (k, ex) = run(&src(&MP.replace("SCOPE", "block")), 1, 2);
    assert!(!results(&k, &ex, 2).contains(&vec![Some(1), Some(0)]));
    assert!(ex.races().is_empty());
    // i ≠ j: different blocks do not synchronise.
    let (k, ex) = run(&src(&MP.replace("SCOPE", "block")), 2, 1);
    assert!(results(&k, &ex, 2).contains(&vec![Some(1), Some(0)]));
    let races = ex.races();
    assert!(races.iter().any(|r| r.kind == RaceKind::Heterogeneous));
    assert!(races.iter().any(|r| r.kind == RaceKind::Data));
}

#[test]
fn plain_write_write_is_a_data_race() {
    let (_, ex) = run(
        r#"
__global__ void ww(int *x) {
    x[0] = threadIdx.x;
}"#,
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 2);
    let races = ex.races();
    assert!(!races.is_empty());
    assert!(races.iter().all(|r| r.kind == RaceKind::Data));
    let r = races[0];
    assert_ne!(r.first.thread, r.second.thread);
    assert!(r.first.is_write && r.second.is_write);
}

#[test]
fn barrier_orders_plain_accesses() {
    let (k, ex) = run(
        r#"
__global__ void bar(int *x, int *r) {
    if (threadIdx.x == 0) x[0] = 1;
    __syncthreads();
    if (threadIdx.x == 1) r[0] = x[0];
}"#,
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 1);
    assert_eq!(results(&k, &ex, 1), vec![vec![Some(1)]]);
    assert!(ex.races().is_empty());
    assert!(ex.executions[0].blocked.is_empty());
}

#[test]
fn barrier_divergence_leaves_threads_blocked() {
    let (_, ex) = run(
        r#"
__global__ void div(int *x) {
    if (threadIdx.x == 0) __syncthreads();
}"#,
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 1);
    assert_eq!(ex.executions[0].blocked.len(), 1);
}

#[test]
fn shared_memory_is_per_block() {
    let (_, ex) = run(
        r#"
__global__ void sh(int *r) {
    __shared__ int s[1];
    s[0] = blockIdx.x;
}"#,
        2,
        1,
    );
    assert_eq!(ex.executions.len(), 1);
    assert!(ex.races().is_empty());
}

#[test]
fn corr_forbids_new_then_old() {
    let (k, ex) = run(
        &src(r#"
__global__ void corr(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) X.store(1, RLX);
    else { int a = X.load(RLX); int b = X.load(RLX); r[0] = a; r[1] = b; }
}"#),
        1,
        2,
    );
    let r = results(&k, &ex, 2);
    assert_eq!(ex.executions.len(), 3);
    assert!(!r.contains(&vec![Some(1), Some(0)]), "{r:?}");
}

#[test]
fn coww_keeps_program_order() {
    let (k, ex) = run(
        &src(r#"
__global__ void coww(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { X.store(1, RLX); X.store(2, RLX); }
    else { r[0] = X.load(RLX); }
}"#),
        1,
        2,
    );
    // The reader sees 0, 1 or 2; the last value is always 2.
    assert_eq!(ex.executions.len(), 3);
    for e in &ex.executions {
        assert_eq!(common::slot(&k, &e.final_memory, "x", 0), Some(2));
    }
}

#[test]
fn cowr_reads_own_write_or_later() {
    let (k, ex) = run(
        &src(r#"
__global__ void cowr(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    X.store(threadIdx.x + 1, RLX);
    r[threadIdx.x] = X.load(RLX);
}"#),
        1,
        2,
    );
    for e in &ex.executions {
        let a = common::slot(&k, &e.final_memory, "r", 0);
        let b = common::slot(&k, &e.final_memory, "r", 1);
        assert!(a != Some(0) && b != Some(0));
        // Both cannot read the other's write (that would need both writes
        // co-before each other).
        assert!(!(a == Some(2) && b == Some(1)));
    }
}

#[test]
fn atomic_adds_are_atomic() {
    let (k, ex) = run(
        r#"
__global__ void add(int *x, int *r) {
    r[threadIdx.x] = atomicAdd(x, 1);
}"#,
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 2);
    for e in &ex.executions {
        assert_eq!(common::slot(&k, &e.final_memory, "x", 0), Some(2));
    }
    assert!(ex.races().is_empty());
}

#[test]
fn one_cas_wins() {
    let (k, ex) = run(
        r#"
__global__ void cas(int *x, int *r) {
    r[threadIdx.x] = atomicCAS(x, 0, threadIdx.x + 1);
}"#,
        1,
        2,
    );
    assert_eq!(ex.executions.len(), 2);
    let r = results(&k, &ex, 2);
    assert_eq!(r, vec![vec![Some(0), Some(1)], vec![Some(2), Some(0)]]);
}

#[test]
fn assertion_failures_are_reported() {
    let (_, ex) = run(
        &src(r#"
#include <assert.h>
__global__ void mp(int *data, int *flag) {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(*flag), D(*data);
    if (threadIdx.x == 0) { D.store(1, RLX); F.store(1, RLX); }
    else if (F.load(RLX) == 1) { assert(D.load(RLX) == 1); }
}"#),
        1,
        2,
    );
    assert_eq!(ex.assertion_failures().count(), 1);
}

#[test]
fn loop_bound_is_an_error() {
    let k = common::kernel(
        r#"
__global__ void spin(int *x) {
    while (atomicAdd(x, 1) != -1) { }
}"#,
    );
    let launch = warpsafe_interp::Launch::new([1, 1, 1], [1, 1, 1]);
    let config = warpsafe_mc::Config {
        max_steps: 50,
        loop_bound: None,
        ..warpsafe_mc::Config::default()
    };
    let err = warpsafe_mc::explore(&k, &launch, &config).expect_err("spins forever");
    assert!(
        matches!(err, warpsafe_mc::McError::StepLimit { .. }),
        "{err}"
    );
}

#[test]
fn execution_bound_is_an_error() {
    let k = common::kernel(
        r#"
__global__ void ww(int *x) {
    x[0] = threadIdx.x;
    x[1] = threadIdx.x;
}"#,
    );
    let launch = warpsafe_interp::Launch::new([1, 1, 1], [3, 1, 1]);
    let config = warpsafe_mc::Config {
        max_executions: 5,
        ..warpsafe_mc::Config::default()
    };
    let err = warpsafe_mc::explore(&k, &launch, &config).expect_err("36 executions");
    assert!(
        matches!(err, warpsafe_mc::McError::TooManyExecutions { limit: 5 }),
        "{err}"
    );
}

#[test]
fn sb_seq_cst_block_scope_across_blocks_is_not_ordered() {
    let sb = r#"
__global__ void sb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_block> X(*x), Y(*y);
    if (blockIdx.x + threadIdx.x == 0) { X.store(1, SC); r[0] = Y.load(SC); }
    else { Y.store(1, SC); r[1] = X.load(SC); }
}"#;
    let (k, ex) = run(&src(sb), 1, 2);
    assert!(!results(&k, &ex, 2).contains(&vec![Some(0), Some(0)]));
    let (k, ex) = run(&src(sb), 2, 1);
    assert!(results(&k, &ex, 2).contains(&vec![Some(0), Some(0)]));
    assert!(ex.races().iter().all(|r| r.kind == RaceKind::Heterogeneous));
}

#[test]
fn block_fences_synchronise_only_within_a_block() {
    let mp = r#"
__global__ void mp(int *data, int *flag, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(*flag), D(*data);
    if (blockIdx.x + threadIdx.x == 0) { D.store(1, RLX); FENCE(); F.store(1, RLX); }
    else {
        int a = F.load(RLX);
        FENCE();
        int b = D.load(RLX);
        r[0] = a;
        r[1] = b;
    }
}"#;
    let block = mp.replace("FENCE", "__threadfence_block");
    let device = mp.replace("FENCE", "__threadfence");
    let stale = vec![Some(1), Some(0)];
    let (k, ex) = run(&src(&block), 1, 2);
    assert!(!results(&k, &ex, 2).contains(&stale));
    let (k, ex) = run(&src(&block), 2, 1);
    assert!(results(&k, &ex, 2).contains(&stale));
    let (k, ex) = run(&src(&device), 2, 1);
    assert!(!results(&k, &ex, 2).contains(&stale));
}

#[test]
fn execution_counts() {
    // Counts that the DPOR stage must reproduce.
    let (_, ex) = run(
        r#"
__global__ void ww(int *x) {
    x[0] = threadIdx.x;
    x[1] = threadIdx.x;
}"#,
        1,
        3,
    );
    // 3! co orders per location.
    assert_eq!(ex.executions.len(), 36);
}
