//! Block barriers are matched by statement, not by count: threads of one
//! block at textually different `__syncthreads()` (or at two inlined
//! copies of one helper's) stay blocked and are reported as divergent, by
//! both explorers and by replay; so do threads at one barrier statement
//! in different iterations of a loop. Threads meeting at the same
//! barrier, iteration by iteration, are released.

mod common;

use common::kernel;
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_mc::{
    dpor, findings, fingerprint, reference, replay, Config, Exploration, Finding, ReplayToken,
};

const IF_ELSE: &str = r#"
__global__ void k(int *o) {
    if (threadIdx.x < 2) { __syncthreads(); o[threadIdx.x] = 1; }
    else { __syncthreads(); o[threadIdx.x] = 2; }
}"#;

const TWO_CALL_SITES: &str = r#"
__device__ void syncWrite(int *o, int v) { __syncthreads(); o[threadIdx.x] = v; }
__global__ void k(int *o) {
    if (threadIdx.x < 2) syncWrite(o, 1); else syncWrite(o, 2);
}"#;

const SAME_BARRIER: &str = r#"
__device__ void syncWrite(int *o, int v) { __syncthreads(); o[threadIdx.x] = v; }
__global__ void k(int *o) {
    for (int i = 0; i < 2; i++) { __syncthreads(); o[threadIdx.x] = i; }
    syncWrite(o, 3);
}"#;

/// Thread t passes the barrier in iteration 3 - t only: each thread
/// arrives once at the same statement, but never in the same iteration.
const DIFFERENT_ITERATIONS: &str = r#"
__global__ void k(int *o) {
    for (unsigned i = 0; i < 4u; i++) {
        if (i + threadIdx.x == 3u) { __syncthreads(); }
    }
}"#;

fn both(k: &Kernel) -> [Exploration; 2] {
    let launch = Launch::new([1, 1, 1], [4, 1, 1]);
    let config = Config::default();
    [
        dpor::explore(k, &launch, &config).expect("dpor explores"),
        reference::explore(k, &launch, &config).expect("reference explores"),
    ]
}

/// For each divergence finding of every execution, the threads blocked.
fn divergences(ex: &Exploration) -> Vec<usize> {
    ex.executions
        .iter()
        .flat_map(findings)
        .filter_map(|f| match f {
            Finding::Divergence { threads, .. } => Some(threads.len()),
            _ => None,
        })
        .collect()
}

/// Replaying `e`'s token rebuilds `e`.
fn assert_replays(k: &Kernel, e: &warpsafe_mc::Execution) {
    let launch = Launch::new([1, 1, 1], [4, 1, 1]);
    let token = ReplayToken::of(&e.graph, fingerprint(k, &launch));
    let again = replay(k, &launch, &Config::default(), &token).expect("replays");
    assert_eq!(&again, e);
}

#[test]
fn threads_at_two_barrier_statements_are_divergent() {
    let k = kernel(IF_ELSE);
    for ex in both(&k) {
        assert_eq!(ex.executions.len(), 1);
        assert_eq!(ex.executions[0].blocked.len(), 4, "nobody is released");
        // One finding per barrier, two threads at each.
        assert_eq!(divergences(&ex), vec![2, 2]);
        // Replay rebuilds the same blocked execution.
        assert_replays(&k, &ex.executions[0]);
    }
}

#[test]
fn two_inlined_copies_of_one_barrier_are_two_barriers() {
    let k = kernel(TWO_CALL_SITES);
    for ex in both(&k) {
        assert_eq!(ex.executions[0].blocked.len(), 4);
        // Both copies share a span: one finding with all four threads.
        assert_eq!(divergences(&ex), vec![4]);
    }
}

#[test]
fn the_same_barrier_in_every_iteration_is_released() {
    let k = kernel(SAME_BARRIER);
    for ex in both(&k) {
        assert!(ex.executions.iter().all(|e| e.blocked.is_empty()));
        assert!(divergences(&ex).is_empty());
    }
}

#[test]
fn one_barrier_in_different_iterations_is_divergent() {
    let k = kernel(DIFFERENT_ITERATIONS);
    for ex in both(&k) {
        assert_eq!(ex.executions.len(), 1);
        assert_eq!(ex.executions[0].blocked.len(), 4, "nobody is released");
        assert_eq!(divergences(&ex), vec![4]);
        assert_replays(&k, &ex.executions[0]);
    }
}
