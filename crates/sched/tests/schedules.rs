//! The schedule explorer on small kernels compiled by the real front end:
//! races by happens-before of the schedule, barriers, spinning, delays
//! (seed 003 Fig. 3/4), final-state comparison and replay tokens.

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_mc::{ErrorKind, RaceKind};
use warpsafe_sched::{
    search, token, DelayPoint, Finding, Flow, Launched, Outcomes, Run, RunConfig, SearchConfig,
};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

fn kernel(src: &str) -> Kernel {
    let mut sources = SourceMap::new();
    let src = format!("#include <assert.h>\n{src}");
    let main = sources.add(SourceFile::new("k.cu", src, false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    out.module.kernels.into_iter().next().expect("one kernel")
}

fn launch(grid: u32, block: u32) -> Launch {
    Launch::new([grid, 1, 1], [block, 1, 1])
}

/// The canonical schedule of `src`.
fn canonical(src: &str, grid: u32, block: u32) -> Run {
    let k = kernel(src);
    let l = Launched::new(&k, &launch(grid, block), RunConfig::default()).expect("launches");
    l.run(&[]).expect("runs")
}

/// Every schedule up to `k` delays: the runs.
fn all_runs(src: &str, grid: u32, block: u32, k: usize) -> Vec<Run> {
    let kern = kernel(src);
    let l = Launched::new(&kern, &launch(grid, block), RunConfig::default()).expect("launches");
    let mut runs = Vec::new();
    let config = SearchConfig {
        delays: k,
        ..SearchConfig::default()
    };
    let s = search(&l, &config, &mut |r| {
        runs.push(r.clone());
        Flow::Continue
    })
    .expect("searches");
    assert!(s.exhausted);
    runs
}

fn kinds(run: &Run) -> Vec<ErrorKind> {
    run.findings.iter().map(Finding::kind).collect()
}

const REDUCE: &str = r#"
__global__ void reduce(int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    for (unsigned d = 32; d > 0; d /= 2) {
        if (t < d) s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}"#;

#[test]
fn a_synchronised_reduction_is_clean_and_computes_its_sum() {
    let run = canonical(REDUCE, 4, 64);
    assert!(run.findings.is_empty(), "{:?}", run.findings);
    assert!(run.cut.is_none());
    assert!(run.conflicts.is_empty());
    let sums: Vec<i64> = run
        .final_memory
        .values()
        .map(|v| v.as_int().expect("an integer") as i64)
        .collect();
    assert_eq!(sums, [2016; 4]);
}

#[test]
fn a_missing_barrier_is_a_data_race() {
    let racy = REDUCE.replacen("        __syncthreads();\n    }", "    }", 1);
    let run = canonical(&racy, 1, 64);
    assert_eq!(kinds(&run)[0], ErrorKind::DataRace);
}

#[test]
fn blocks_are_not_ordered_by_their_barriers() {
    let src = r#"
__global__ void k(int *a) {
    if (threadIdx.x == 0) a[0] = blockIdx.x;
    __syncthreads();
    if (threadIdx.x == 1) a[1] = a[0];
}"#;
    assert!(canonical(src, 1, 2).findings.is_empty());
    let run = canonical(src, 2, 2);
    assert!(!run.findings.is_empty());
    assert!(kinds(&run).iter().all(|k| *k == ErrorKind::DataRace));
}

const MESSAGE: &str = r#"
__global__ void mp(int *data, int *flag) {
    if (blockIdx.x == 0) {
        data[0] = 42;
        __threadfence();
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {}
        __threadfence();
        assert(data[0] == 42);
    }
}"#;

#[test]
fn fences_around_atomics_publish_across_blocks() {
    // Block 1 spins until block 0 ran: it yields, block 0 runs.
    let runs = all_runs(MESSAGE, 2, 1, 2);
    for r in &runs {
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert!(r.cut.is_none());
    }
    let unfenced = MESSAGE.replace("__threadfence();", "");
    let run = canonical(&unfenced, 2, 1);
    assert_eq!(kinds(&run), [ErrorKind::DataRace]);
}

#[test]
fn block_scoped_atomics_across_blocks_are_heterogeneous_races() {
    let src = r#"
__global__ void k(int *c) {
    atomicAdd_block(c, 1);
}"#;
    let run = canonical(src, 2, 1);
    match &run.findings[..] {
        [Finding::Race { kind, .. }] => assert_eq!(*kind, RaceKind::Heterogeneous),
        other => panic!("{other:?}"),
    }
    assert!(canonical(src, 1, 2).findings.is_empty());
}

#[test]
fn a_barrier_some_threads_skip_is_divergence() {
    let src = r#"
__global__ void k(int *a) {
    if (threadIdx.x < 16) __syncthreads();
    a[threadIdx.x] = 1;
}"#;
    assert_eq!(
        kinds(&canonical(src, 1, 32)),
        [ErrorKind::BarrierDivergence]
    );
}

#[test]
fn waiting_for_a_flag_nobody_sets_hangs() {
    let src = r#"
__global__ void k(int *flag) {
    while (atomicAdd(flag, 0) == 0) {}
}"#;
    assert_eq!(kinds(&canonical(src, 2, 1)), [ErrorKind::Hang]);
}

/// A delayed thread whose atomics change nothing runs on, then waits at a
/// tile barrier: once released it is not a spinning thread, and no
/// schedule hangs (the stale mark of its delay made one hang).
#[test]
fn a_thread_released_from_a_tile_barrier_after_a_delay_does_not_hang() {
    let src = r#"
#include <cooperative_groups.h>
__global__ void k(int *g) {
    atomicAdd(&g[threadIdx.x % 4u], 0);
    atomicAdd(&g[3], 0);
    cooperative_groups::tiled_partition<2>(cooperative_groups::this_thread_block()).sync();
}"#;
    let runs = all_runs(src, 1, 3, 2);
    assert!(runs.len() > 1, "delays were tried: {}", runs.len());
    for run in &runs {
        assert_eq!(kinds(run), [], "{:?}", run.findings);
    }
}

/// Seed 003 Fig. 3: the N-body tree insertion, with the planted re-read of
/// `tree[target]` between the check and the CAS.
const NBODY: &str = r#"
#define LOCK -2
__global__ void insert(int *tree, int *out) {
    int target = 0;
    int leaf = tree[target];
    if (leaf != LOCK) {
        leaf = atomicAdd(&tree[target], 0);
        if (leaf == atomicCAS(&tree[target], leaf, LOCK)) {
            assert(leaf != LOCK);
            out[blockIdx.x] = leaf;
            atomicExch(&tree[target], blockIdx.x + 1);
        }
    }
}"#;

#[test]
fn the_nbody_bug_needs_a_delay() {
    let canonical_run = canonical(
        &NBODY.replace(
            "int leaf = tree[target];",
            "int leaf = atomicAdd(&tree[target], 0);",
        ),
        2,
        1,
    );
    assert!(
        canonical_run.findings.is_empty(),
        "{:?}",
        canonical_run.findings
    );
    let src = NBODY.replace(
        "int leaf = tree[target];",
        "int leaf = atomicAdd(&tree[target], 0);",
    );
    let runs = all_runs(&src, 2, 1, 2);
    let failing: Vec<&Run> = runs
        .iter()
        .filter(|r| kinds(r).contains(&ErrorKind::Assertion))
        .collect();
    assert!(!failing.is_empty(), "no schedule fails");
    assert!(failing.iter().all(|r| !r.delays.is_empty()));
    // The fix: no re-read between the check and the CAS.
    let fixed = src.replace("        leaf = atomicAdd(&tree[target], 0);\n", "");
    for r in all_runs(&fixed, 2, 1, 2) {
        assert!(r.findings.is_empty(), "{:?} {:?}", r.delays, r.findings);
    }
}

#[test]
fn delays_change_which_block_wins_and_tokens_replay_it() {
    let src = r#"
__global__ void k(int *x) {
    atomicExch(x, blockIdx.x + 1);
}"#;
    let runs = all_runs(src, 2, 1, 1);
    assert_eq!(runs.len(), 2);
    let mut outcomes = Outcomes::default();
    for r in &runs {
        outcomes.add(r);
    }
    assert_eq!(outcomes.outcomes.len(), 2);
    assert_eq!(outcomes.differences(0, 1).len(), 1);
    let kern = kernel(src);
    let l = launch(2, 1);
    let delayed = &runs[1];
    assert_eq!(delayed.delays, [DelayPoint { thread: 0, op: 0 }]);
    let tok = token::encode(&kern, &l, &delayed.delays);
    let back = token::decode(&kern, &l, &tok).expect("decodes");
    let again = Launched::new(&kern, &l, RunConfig::default())
        .expect("launches")
        .run(&back)
        .expect("runs");
    assert_eq!(&again, delayed);
    assert!(token::decode(&kern, &launch(3, 1), &tok).is_err());
}

#[test]
fn a_step_limit_cuts_a_loop_that_never_ends() {
    let src = r#"
__global__ void k(int *a) {
    int i = 0;
    while (a[0] == 0) { i++; }
    a[1] = i;
}"#;
    let kern = kernel(src);
    let config = RunConfig {
        max_steps: 10_000,
        ..RunConfig::default()
    };
    let run = Launched::new(&kern, &launch(1, 1), config)
        .expect("launches")
        .run(&[])
        .expect("runs");
    assert!(
        matches!(run.cut, Some(warpsafe_sched::Cut::StepLimit { .. })),
        "{:?}",
        run.cut
    );
}

/// An atomic at another type than the array's slots reads the slot's bits
/// at its own type, also before any write.
#[test]
fn an_atomic_through_a_cast_pointer_reads_the_slot_at_its_type() {
    let src = r#"
__global__ void k(int *a) {
    unsigned old = atomicInc((unsigned int *)&a[0], 17u);
    a[1 + blockIdx.x] = old;
}"#;
    let run = canonical(src, 2, 1);
    assert!(run.findings.is_empty(), "{:?}", run.findings);
    assert!(run.cut.is_none());
    let values: Vec<i128> = run
        .final_memory
        .values()
        .map(|v| v.as_int().expect("an integer"))
        .collect();
    assert_eq!(values, [2, 0, 1]);
}

/// One helper's store racing on two arrays is two races (the key of a race
/// includes its array).
#[test]
fn a_helper_racing_on_two_arrays_is_two_races() {
    let src = r#"
__device__ void put(int *p, int v) { *p = v; }
__global__ void k(int *g) {
    __shared__ int s[4];
    put(&g[threadIdx.x], 1);
    put(&s[0], 2);
}"#;
    let run = canonical(src, 2, 2);
    assert_eq!(
        kinds(&run),
        [ErrorKind::DataRace, ErrorKind::DataRace],
        "{:?}",
        run.findings
    );
}
