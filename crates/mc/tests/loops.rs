//! Loops in the explorers: the loop bound cuts executions (reported as
//! cut, never as complete), spin-assume blocks wasted await iterations
//! without losing executions or errors, and DPOR agrees with the reference
//! enumerator on the lock kernels of `tests/kernels/locks` (seed 000,
//! Table 1) with both kinds of cut.

mod common;

use std::collections::HashSet;
use warpsafe_interp::{BlockReason, Launch};
use warpsafe_ir::Kernel;
use warpsafe_mc::{dpor, reference, Config, Exploration, Graph, RaceKind};

const CASLOCK: &str = include_str!("../../../tests/kernels/locks/caslock.cu");
const CASLOCK1: &str = include_str!("../../../tests/kernels/locks/caslock1.cu");
const TICKETLOCK: &str = include_str!("../../../tests/kernels/locks/ticketlock.cu");
const TTASLOCK: &str = include_str!("../../../tests/kernels/locks/ttaslock.cu");
const XCHGLOCK: &str = include_str!("../../../tests/kernels/locks/xchglock.cu");
const XCHGLOCK1: &str = include_str!("../../../tests/kernels/locks/xchglock1.cu");
const XF_BARRIER: &str = include_str!("../../../tests/kernels/locks/xf_barrier.cu");
const XF_BARRIER2: &str = include_str!("../../../tests/kernels/locks/xf_barrier2.cu");

fn config(loop_bound: u32, spin_assume: bool) -> Config {
    Config {
        loop_bound: Some(loop_bound),
        spin_assume,
        ..Config::default()
    }
}

fn graphs(ex: &Exploration) -> HashSet<(Graph, usize)> {
    ex.executions
        .iter()
        .map(|e| (e.graph.clone(), e.cut.len()))
        .collect()
}

/// DPOR and the reference enumerator give the same executions (complete
/// and cut), each once; returns DPOR's.
fn agree(k: &Kernel, launch: &Launch, config: &Config) -> Exploration {
    let d = dpor::explore(k, launch, config).expect("dpor explores");
    let r = reference::explore(k, launch, config).expect("reference explores");
    assert_eq!(graphs(&d).len(), d.executions.len(), "dpor repeats none");
    assert_eq!(graphs(&d), graphs(&r), "dpor and reference agree");
    d
}

/// The executions that show a hang.
fn hangs(ex: &Exploration) -> usize {
    ex.executions
        .iter()
        .filter(|e| {
            warpsafe_mc::findings(e)
                .iter()
                .any(|f| f.kind() == warpsafe_mc::ErrorKind::Hang)
        })
        .count()
}

#[test]
fn spin_locks_explore_few_executions_and_never_reach_the_bound() {
    // (kernel, grid, block, complete executions: one per order of taking
    // the lock; for ttaslock also per value the second thread's test read
    // as free, the initial one or the release; a retry after a failed CAS
    // is a wasted iteration of two reads, cut)
    let cases = [
        (CASLOCK, 1, 2, 2),
        (CASLOCK, 2, 1, 2),
        (CASLOCK, 1, 3, 6),
        (TICKETLOCK, 2, 1, 2),
        (TICKETLOCK, 1, 3, 6),
        (TTASLOCK, 2, 1, 4),
        (TTASLOCK, 1, 2, 4),
        (XCHGLOCK, 2, 1, 2),
        (XCHGLOCK, 3, 1, 6),
    ];
    for (src, grid, block, n) in cases {
        let k = common::kernel(src);
        let launch = Launch::new([grid, 1, 1], [block, 1, 1]);
        let small = agree(&k, &launch, &config(8, true));
        let large = dpor::explore(&k, &launch, &config(40, true)).expect("explores");
        assert_eq!(small.complete().count(), n, "{}", k.name);
        assert_eq!(
            small.bounded(),
            0,
            "{}: no execution reaches the bound",
            k.name
        );
        assert_eq!(
            graphs(&small),
            graphs(&large),
            "{}: the bound does not matter",
            k.name
        );
        assert!(small.races().is_empty(), "{}", k.name);
    }
}

#[test]
fn without_spin_assume_the_same_lock_needs_the_bound() {
    let k = common::kernel(CASLOCK);
    let launch = Launch::new([2, 1, 1], [1, 1, 1]);
    let ex = agree(&k, &launch, &config(3, false));
    assert!(ex.bounded() > 0, "stale reads spin until the bound");
    // Every complete execution without spin-assume leaves the same final
    // memory as the two with it.
    let spin = dpor::explore(&k, &launch, &config(3, true)).expect("explores");
    let outcomes = |x: &Exploration| -> HashSet<_> { x.outcomes().into_iter().cloned().collect() };
    assert_eq!(outcomes(&ex), outcomes(&spin));
}

#[test]
fn broken_locks_and_barriers_race() {
    let k = common::kernel(CASLOCK1);
    let ex = agree(&k, &Launch::new([2, 1, 1], [1, 1, 1]), &config(8, true));
    assert!(ex.races().iter().any(|r| r.kind == RaceKind::Data));
    let k = common::kernel(XCHGLOCK1);
    let ex = agree(&k, &Launch::new([2, 1, 1], [1, 1, 1]), &config(8, true));
    assert!(ex.races().iter().any(|r| r.kind == RaceKind::Data));
    assert_eq!(ex.bounded(), 0, "the waiting exchange is a read");
    let k = common::kernel(XF_BARRIER2);
    let ex = agree(&k, &Launch::new([2, 1, 1], [1, 1, 1]), &config(8, true));
    assert!(ex.races().iter().any(|r| r.kind == RaceKind::Data));
    let k = common::kernel(XF_BARRIER);
    let ex = agree(&k, &Launch::new([2, 1, 1], [1, 1, 1]), &config(8, true));
    assert!(ex.races().is_empty());
    assert_eq!(ex.bounded(), 0);
    assert!(
        ex.executions.iter().all(|e| e.blocked.is_empty()),
        "no divergence"
    );
}

/// A race whose read happens only in a wasted iteration is reported from
/// the blocked execution.
#[test]
fn a_race_in_a_wasted_iteration_is_reported() {
    let k = common::kernel(
        r#"
__global__ void k(int *flag) {
    if (threadIdx.x == 0) { while (flag[0] == 0) { } }
    else flag[0] = 1;
}"#,
    );
    let ex = agree(&k, &Launch::new([1, 1, 1], [2, 1, 1]), &config(8, true));
    assert!(ex.races().iter().any(|r| r.kind == RaceKind::Data));
}

#[test]
fn a_loop_that_never_ends_is_cut_at_the_bound() {
    let k = common::kernel(
        r#"
__global__ void spin(int *x) {
    while (atomicAdd(x, 1) != -1) { }
}"#,
    );
    let ex = agree(&k, &Launch::new([1, 1, 1], [1, 1, 1]), &config(4, true));
    assert_eq!(ex.executions.len(), 1);
    assert_eq!(ex.complete().count(), 0);
    let e = &ex.executions[0];
    assert!(matches!(
        e.cut[0].reason,
        BlockReason::LoopBound { bound: 4 }
    ));
    assert_eq!(
        e.graph.events[0].len(),
        5,
        "four bodies, the RMW of a fifth test, then the cut"
    );
}

/// A 64-thread block where the first lane of each warp takes a fenced
/// lock and every thread writes its own slot: two threads interact, so
/// the launch is accepted (issue 12) and explores one execution per lock
/// order; with every lane taking the lock, more than
/// `max_active_threads` interact and the exploration stops, saying so.
#[test]
fn only_interacting_threads_count_against_the_limit() {
    let src = include_str!("../../../tests/kernels/locks/interwarp_lock.cu");
    let k = common::kernel(src);
    let launch = Launch::new([1, 1, 1], [64, 1, 1]);
    let ex = dpor::explore(&k, &launch, &config(8, true)).expect("two threads interact");
    assert_eq!(ex.complete().count(), 2);
    assert!(ex.races().is_empty());
    let all = common::kernel(&src.replace("tid % 32 == 0", "tid % 2 == 0"));
    let err = dpor::explore(&all, &launch, &config(8, true)).expect_err("32 interact");
    assert!(
        matches!(
            err,
            warpsafe_mc::McError::TooManyActiveThreads { limit: 16 }
        ),
        "{err}"
    );
}

/// An update that writes the value it read (an exchange of the locked
/// value, `atomicAdd(x, 0)`) changes nothing: an iteration doing only that
/// is wasted, so the loop ends in spin-assume's block, never at the bound,
/// whatever the bound. With a block-scoped atomic in a launch of two
/// blocks, scopes differ between threads and the rule is off: the bound
/// cuts the loop.
#[test]
fn an_update_that_changes_nothing_is_a_wasted_iteration() {
    let idle = common::kernel(
        r#"
__global__ void spin(int *x) {
    while (atomicAdd(x, 0) == 0) { }
}"#,
    );
    for bound in [4, 40] {
        let ex = agree(
            &idle,
            &Launch::new([1, 1, 1], [1, 1, 1]),
            &config(bound, true),
        );
        assert_eq!(ex.executions.len(), 1);
        assert_eq!(ex.bounded(), 0, "bound {bound}");
        assert!(matches!(
            ex.executions[0].cut[0].reason,
            BlockReason::SpinLoop { reads: 1 }
        ));
        assert_eq!(ex.executions[0].graph.events[0].len(), 1, "one test");
    }
    let scoped = common::kernel(
        r#"#include <cuda/atomic>
__global__ void spin(int *x, int *y) {
    cuda::atomic_ref<int, cuda::thread_scope_block> Y(*y);
    if (blockIdx.x == 1) Y.store(1);
    while (atomicAdd(x, 0) == 0) { }
}"#,
    );
    let ex = agree(
        &scoped,
        &Launch::new([2, 1, 1], [1, 1, 1]),
        &config(3, true),
    );
    assert!(
        ex.bounded() > 0,
        "block scope across blocks: no idle updates"
    );
    let ex = agree(
        &scoped,
        &Launch::new([1, 1, 1], [2, 1, 1]),
        &config(3, true),
    );
    assert_eq!(ex.bounded(), 0, "one block: block scope includes everyone");
}

/// An `__assume` on a value read: DPOR keeps the state until the write
/// that makes it hold can be read (the reference enumerator finds it by
/// trying every order).
#[test]
fn an_assumption_on_memory_waits_for_the_write() {
    let k = common::kernel(
        r#"
__global__ void k(int *x, int *y) {
    if (threadIdx.x == 0) {
        int v = atomicAdd(&x[0], 0);
        __assume(v == 1);
        y[0] = 1;
    } else atomicExch(&x[0], 1);
}"#,
    );
    let ex = agree(&k, &Launch::new([1, 1, 1], [2, 1, 1]), &config(8, true));
    assert_eq!(ex.complete().count(), 1);
}

/// A wait that no write ends is a hang in every execution; the same wait
/// released by another thread is a hang in none (spin-assume's blocked
/// executions, where the read saw an older value, are not hangs).
#[test]
fn an_await_loop_nobody_releases_is_a_hang() {
    let spin = common::kernel(
        r#"#include <cuda/atomic>
__global__ void spin(int *x)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
  while (X.load(cuda::memory_order_relaxed) == 0) {}
}
"#,
    );
    let released = common::kernel(
        r#"#include <cuda/atomic>
__global__ void released(int *x)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
  if (threadIdx.x == 0) X.store(1, cuda::memory_order_relaxed);
  else while (X.load(cuda::memory_order_relaxed) == 0) {}
}
"#,
    );
    let launch = Launch::new([1, 1, 1], [2, 1, 1]);
    let ex = agree(&spin, &launch, &config(8, true));
    assert!(!ex.executions.is_empty());
    assert_eq!(hangs(&ex), ex.executions.len(), "every execution hangs");
    let ex = agree(&released, &launch, &config(8, true));
    assert!(ex.complete().count() >= 1);
    assert!(
        ex.executions.len() > ex.complete().count(),
        "a stale read is blocked"
    );
    assert_eq!(hangs(&ex), 0, "the store always ends the wait");
}

/// A test-and-test-and-set retry (a load that saw the lock free, then a
/// failed CAS) is a wasted iteration of two reads, cut only when the
/// lock's every access has a scope that includes every thread: a
/// block-scoped lock across blocks keeps its retries (coherence ends
/// them: the next test reads the CAS's value or a newer one).
#[test]
fn a_retry_of_two_reads_is_cut_only_on_a_quiet_array() {
    let block_scoped =
        common::kernel(&TTASLOCK.replace("thread_scope_device", "thread_scope_block"));
    let ex = agree(
        &block_scoped,
        &Launch::new([1, 1, 1], [2, 1, 1]),
        &config(4, true),
    );
    assert_eq!(ex.bounded(), 0, "one block: block scope includes everyone");
    assert_eq!(ex.complete().count(), 4);
    let ex = agree(
        &block_scoped,
        &Launch::new([2, 1, 1], [1, 1, 1]),
        &config(4, true),
    );
    assert!(
        ex.complete().count() > 4,
        "two blocks: the lock is not quiet, its retries go on"
    );
}

/// Only an iteration's first read may be of an array that can race: a
/// plain read of `q` after the flag's load keeps the iteration, so the
/// race of that read with the write of `q` made only once the thread left
/// the loop (and told so through `ack`) is found.
#[test]
fn a_plain_read_after_the_first_keeps_the_iteration() {
    let k = common::kernel(
        r#"#include <cuda/atomic>
__global__ void k(int *flag, int *ack, int *q, int *out)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> F(*flag);
  cuda::atomic_ref<int, cuda::thread_scope_device> A(*ack);
  if (threadIdx.x == 0) {
    int v = 0;
    while (true) {
      if (F.load(cuda::memory_order_relaxed) == 0) { v = q[0]; v = 0; }
      else break;
    }
    A.store(1, cuda::memory_order_relaxed);
    out[0] = v;
  } else {
    F.store(1, cuda::memory_order_relaxed);
    while (A.load(cuda::memory_order_relaxed) == 0) {}
    q[0] = 1;
  }
}
"#,
    );
    let ex = agree(&k, &Launch::new([1, 1, 1], [2, 1, 1]), &config(4, true));
    assert!(
        ex.races()
            .iter()
            .any(|r| r.kind == RaceKind::Data && r.loc.array.0 == 2),
        "the read of q races with the write"
    );
}

/// A thread cut in an iteration of two reads hangs only when both read
/// the latest values: a first read that saw an older value will see the
/// newer one (fairness), and the wait may then end.
#[test]
fn a_hang_needs_every_read_of_the_iteration_to_be_latest() {
    let kernel = |stores: &str| {
        common::kernel(&format!(
            r#"#include <cuda/atomic>
__global__ void k(int *x, int *y)
{{
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
  cuda::atomic_ref<int, cuda::thread_scope_device> Y(*y);
  if (threadIdx.x == 0) {{ {stores} }}
  else while (X.load(cuda::memory_order_relaxed) + Y.load(cuda::memory_order_relaxed) < 2) {{}}
}}
"#
        ))
    };
    let launch = Launch::new([1, 1, 1], [2, 1, 1]);
    let both =
        kernel("X.store(1, cuda::memory_order_relaxed); Y.store(1, cuda::memory_order_relaxed);");
    let ex = agree(&both, &launch, &config(8, true));
    assert_eq!(ex.bounded(), 0);
    assert!(ex.complete().count() >= 1);
    assert!(
        ex.executions.len() > ex.complete().count(),
        "stale reads are cut"
    );
    assert_eq!(hangs(&ex), 0, "both stores always end the wait");
    let only_x = kernel("X.store(1, cuda::memory_order_relaxed);");
    let ex = agree(&only_x, &launch, &config(8, true));
    assert_eq!(ex.complete().count(), 0);
    let hung = hangs(&ex);
    assert!(hung >= 1, "x read as 1 and y as 0 for ever");
    assert!(hung < ex.executions.len(), "x read as 0 is stale: no hang");
}
