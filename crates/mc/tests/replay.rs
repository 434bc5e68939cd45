//! Replay tokens round-trip: for every execution DPOR reports on a set of
//! kernels (message passing, store buffering, RMWs and CASes, barriers and
//! reducing barriers, shared memory in two blocks, assertions, divergence,
//! faults), on every kernel of `tests/kernels/genmc-litmus`, and on random
//! small programs, encoding its token, decoding it
//! and replaying it gives back the same execution (graph, final memory,
//! races, failed assertions, faults, blocked threads). Tokens for another
//! launch, and tokens whose `rf` or `co` were altered, are rejected.

mod common;

use proptest::prelude::*;
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_mc::{
    dpor, fingerprint, replay, Config, EventId, Execution, Observer, ReplayError, ReplayToken,
    RfSource,
};

use common::HEADER;

const KERNELS: &[(&str, u32, u32)] = &[
    (
        r#"__global__ void mp(int *data, int *flag) {
    cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
    if (threadIdx.x == 0 && blockIdx.x == 0) { data[0] = 42; f.store(1, REL); }
    else if (f.load(ACQ) == 1) assert(data[0] == 42);
}"#,
        2,
        1,
    ),
    (
        r#"__global__ void sb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    if (threadIdx.x == 0) { X.store(1, RLX); r[0] = Y.load(RLX); }
    else { Y.store(1, RLX); r[1] = X.load(RLX); }
}"#,
        1,
        2,
    ),
    (
        r#"__global__ void rmw(int *x, int *r) {
    r[threadIdx.x] = atomicAdd(x, 1) + atomicCAS(x + 1, 0, threadIdx.x + 1);
}"#,
        1,
        3,
    ),
    (
        r#"__global__ void bars(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) X.store(1, RLX);
    int c = __syncthreads_count(X.load(RLX) == 1);
    r[threadIdx.x] = c;
    __syncthreads();
    x[1 + threadIdx.x] = r[1 - threadIdx.x];
}"#,
        1,
        2,
    ),
    (
        r#"__global__ void shared(int *x, int *r) {
    __shared__ int s[2];
    s[threadIdx.x] = blockIdx.x + 1;
    __syncthreads();
    r[blockIdx.x * 2 + threadIdx.x] = s[1 - threadIdx.x];
    atomicAdd(x, s[0]);
}"#,
        2,
        2,
    ),
    (
        r#"__global__ void diverge(int *x) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { if (X.load(RLX) == 1) __syncthreads(); }
    else { X.store(1, RLX); __syncthreads(); }
}"#,
        1,
        2,
    ),
    (
        r#"__global__ void oob(int *x) {
    __shared__ int s[2];
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) X.store(2, RLX);
    else s[X.load(RLX)] = 1;
}"#,
        1,
        2,
    ),
    (
        r#"__global__ void div(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) X.store(0, RLX);
    else { X.store(3, RLX); r[0] = 6 / X.load(RLX); }
}"#,
        1,
        2,
    ),
];

/// Every execution DPOR reports for `k` under `launch`.
fn executions(k: &Kernel, launch: &Launch) -> Vec<Execution> {
    let mut all = Vec::new();
    let mut keep = |e: Execution| {
        all.push(e);
        warpsafe_mc::Flow::Continue
    };
    dpor::explore_with(
        k,
        launch,
        &Config::default(),
        &mut keep as &mut dyn Observer,
    )
    .expect("exploration succeeds");
    all
}

fn round_trip(k: &Kernel, launch: &Launch) -> Result<usize, String> {
    let execs = executions(k, launch);
    let fp = fingerprint(k, launch);
    for e in &execs {
        let text = ReplayToken::of(&e.graph, fp).encode();
        let token = ReplayToken::decode(&text).map_err(|e| e.to_string())?;
        let again = replay(k, launch, &Config::default(), &token)
            .map_err(|err| format!("{err} for {text}"))?;
        if &again != e {
            return Err(format!("{text} replays to another execution"));
        }
    }
    Ok(execs.len())
}

fn launch(grid: u32, block: u32) -> Launch {
    Launch::new([grid, 1, 1], [block, 1, 1])
}

#[test]
fn every_execution_replays_to_itself() {
    let mut total = 0;
    for (src, grid, block) in KERNELS {
        let k = common::kernel(&format!("{HEADER}{src}"));
        total += round_trip(&k, &launch(*grid, *block)).unwrap_or_else(|e| panic!("{e}\n{src}"));
    }
    assert!(total > 40, "only {total} executions");
}

/// The `--blockDim=N` of a corpus kernel's flag line (one block).
fn block_dim(text: &str) -> Option<u32> {
    text.lines()
        .nth(1)?
        .trim_start_matches('/')
        .split_whitespace()
        .find_map(|f| f.strip_prefix("--blockDim="))?
        .parse()
        .ok()
}

#[test]
fn every_execution_of_the_genmc_litmus_kernels_replays_to_itself() {
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/genmc-litmus");
    let mut paths: Vec<_> = std::fs::read_dir(&folder)
        .expect("invariant: the genmc-litmus folder exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    paths.sort();
    let (mut kernels, mut total) = (0, 0);
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("invariant: kernels are readable");
        let threads =
            block_dim(&text).unwrap_or_else(|| panic!("{}: no --blockDim", path.display()));
        let k = common::kernel(&text);
        total += round_trip(&k, &launch(1, threads))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        kernels += 1;
    }
    assert!(
        kernels >= 60 && total > 1000,
        "{kernels} kernels, {total} executions"
    );
}

#[test]
fn the_kernels_show_every_kind_of_error() {
    // The round trip above covers failed assertions, divergence and faults.
    let mut kinds = std::collections::BTreeSet::new();
    for (src, grid, block) in KERNELS {
        let k = common::kernel(&format!("{HEADER}{src}"));
        for e in executions(&k, &launch(*grid, *block)) {
            kinds.extend(warpsafe_mc::findings(&e).iter().map(|f| f.kind()));
        }
    }
    assert_eq!(kinds.len(), 5, "{kinds:?}");
}

#[test]
fn tokens_for_another_launch_are_a_mismatch() {
    let (src, grid, block) = KERNELS[0];
    let k = common::kernel(&format!("{HEADER}{src}"));
    let l = launch(grid, block);
    let e = &executions(&k, &l)[0];
    let token = ReplayToken::of(&e.graph, fingerprint(&k, &l));
    let other = launch(1, 2);
    assert_eq!(
        replay(&k, &other, &Config::default(), &token),
        Err(ReplayError::Mismatch)
    );
}

#[test]
fn altered_choices_are_rejected() {
    let (src, grid, block) = KERNELS[1];
    let k = common::kernel(&format!("{HEADER}{src}"));
    let l = launch(grid, block);
    let e = &executions(&k, &l)[0];
    let good = ReplayToken::of(&e.graph, fingerprint(&k, &l));
    // A read from an event that is not a write to its location.
    let mut bad = good.clone();
    bad.reads[1][0] = RfSource::Write(EventId {
        thread: 0,
        index: 1,
    });
    assert!(matches!(
        replay(&k, &l, &Config::default(), &bad),
        Err(ReplayError::Diverged(_))
    ));
    // A read of a write that never happens.
    let mut bad = good.clone();
    bad.reads[1][0] = RfSource::Write(EventId {
        thread: 0,
        index: 9,
    });
    assert!(matches!(
        replay(&k, &l, &Config::default(), &bad),
        Err(ReplayError::Diverged(_))
    ));
    // A write left out of co.
    let mut bad = good;
    bad.co.pop();
    assert!(matches!(
        replay(&k, &l, &Config::default(), &bad),
        Err(ReplayError::Diverged(_))
    ));
}

#[test]
fn inconsistent_tokens_are_rejected() {
    let src = r#"__global__ void corr(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { X.store(1, RLX); X.store(2, RLX); }
    else { r[0] = X.load(RLX); r[1] = X.load(RLX); }
}"#;
    let k = common::kernel(&format!("{HEADER}{src}"));
    let l = launch(1, 2);
    let e = &executions(&k, &l)[0];
    let mut token = ReplayToken::of(&e.graph, fingerprint(&k, &l));
    let w = |index| RfSource::Write(EventId { thread: 0, index });
    // Reading 2 then 1 contradicts co = 1 < 2 (CoRR).
    token.reads[1] = vec![w(1), w(0)];
    assert!(matches!(
        replay(&k, &l, &Config::default(), &token),
        Err(ReplayError::Inconsistent(_))
    ));
}

/// Statements of random threads: atomics of both scopes, RMWs, CASes,
/// plain accesses, fences and barriers.
const STATEMENTS: &[&str] = &[
    "Xd.store(1, RLX);",
    "Yb.store(2, REL);",
    "s += Xd.load(ACQ);",
    "s += Yb.load(RLX);",
    "s += Xd.exchange(3, SC);",
    "s += atomicCAS(&y[0], 0, 4);",
    "s += atomicAdd(&x[0], 1);",
    "x[0] = 5;",
    "s += y[0];",
    "__threadfence();",
    "__syncthreads();",
];

fn program(threads: &[Vec<usize>]) -> String {
    let mut branches = String::new();
    for (i, ops) in threads.iter().enumerate() {
        let body: Vec<&str> = ops.iter().map(|o| STATEMENTS[*o]).collect();
        branches += &format!("if (t == {i}) {{ {} }}\n    ", body.join(" "));
    }
    format!(
        r#"__global__ void k(int *x, int *y, int *r) {{
    cuda::atomic_ref<int, cuda::thread_scope_block> Yb(y[0]);
    cuda::atomic_ref<int, cuda::thread_scope_device> Xd(x[0]);
    int s = 0;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    {branches}r[t] = s;
}}"#
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_programs_replay(
        t0 in prop::collection::vec(0..STATEMENTS.len(), 1..4),
        t1 in prop::collection::vec(0..STATEMENTS.len(), 1..4),
        t2 in prop::collection::vec(0..STATEMENTS.len(), 0..3),
        same_block in any::<bool>(),
    ) {
        let src = program(&[t0, t1, t2]);
        let k = common::kernel(&format!("{HEADER}{src}"));
        let l = if same_block { launch(1, 3) } else { launch(3, 1) };
        if let Err(e) = round_trip(&k, &l) {
            return Err(TestCaseError::fail(format!("{e}\n{src}")));
        }
    }
}
