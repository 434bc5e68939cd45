//! The DPOR explorer against the reference enumerator: on every litmus
//! kernel of `litmus.rs` (and more: IRIW, WRC, update chains, barriers,
//! bounded loops), on LB-n rings, and on random small programs of two to
//! four threads, the same executions (as graphs, hence the same count and
//! outcomes, races and assertion failures), none produced twice.
//!
//! Stress runs: `DPOR_CASES=4000 DPOR_OPS=5 cargo test --release -p
//! warpsafe-mc --test dpor random` (cases per property, ops per thread
//! bound); programs too big for the reference enumerator's bounds are
//! skipped.

mod common;

use proptest::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::time::Instant;
use warpsafe_interp::{Launch, Value};
use warpsafe_ir::Kernel;
use warpsafe_mc::{dpor, reference, Config, Exploration, Graph, Loc, ThreadId};

use common::{HEADER, MP};

/// What identifies an execution: its graph and its faulted threads.
type Key = (Graph, Vec<ThreadId>);

fn keys(ex: &Exploration) -> (Vec<Key>, HashSet<Key>) {
    let all: Vec<Key> = ex
        .executions
        .iter()
        .map(|e| (e.graph.clone(), e.faults.iter().map(|f| f.thread).collect()))
        .collect();
    let set = all.iter().cloned().collect();
    (all, set)
}

fn outcomes(ex: &Exploration) -> HashSet<BTreeMap<Loc, Value>> {
    ex.outcomes().into_iter().cloned().collect()
}

/// Explores `k` both ways and checks they agree; returns the count.
fn compare_kernel(k: &Kernel, launch: &Launch) -> Result<usize, String> {
    let config = Config {
        max_states: 20_000,
        ..Config::default()
    };
    let r = reference::explore(k, launch, &config).map_err(|e| format!("reference: {e}"))?;
    let d = dpor::explore(k, launch, &config).map_err(|e| format!("dpor: {e}"))?;
    let (rall, rset) = keys(&r);
    let (dall, dset) = keys(&d);
    if dset.len() != dall.len() {
        return Err(format!(
            "dpor produced {} executions, {} distinct",
            dall.len(),
            dset.len()
        ));
    }
    if rset.len() != rall.len() {
        return Err("reference produced a duplicate".into());
    }
    if rset != dset {
        let missing = rset.difference(&dset).count();
        let extra = dset.difference(&rset).count();
        let first_missing = rset
            .difference(&dset)
            .next()
            .map(|g| format!("{:#?}", g.0.rf));
        return Err(format!(
            "reference {} vs dpor {} executions: {missing} missing, {extra} extra; first missing rf: {first_missing:?}",
            rset.len(),
            dset.len()
        ));
    }
    if outcomes(&r) != outcomes(&d) {
        return Err("different outcomes".into());
    }
    let races = |ex: &Exploration| {
        ex.races()
            .iter()
            .map(|r| (r.kind, r.loc, r.first.thread, r.second.thread))
            .collect::<HashSet<_>>()
    };
    if races(&r) != races(&d) {
        return Err("different races".into());
    }
    if r.assertion_failures().count() != d.assertion_failures().count() {
        return Err("different assertion failures".into());
    }
    Ok(dall.len())
}

const SB: &str = r#"
__global__ void sb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_SCOPE> X(*x), Y(*y);
    if (blockIdx.x + threadIdx.x == 0) { X.store(1, ORD); FENCE; r[0] = Y.load(ORD); }
    else { Y.store(1, ORD); FENCE; r[1] = X.load(ORD); }
}"#;

const MP_FENCE: &str = r#"
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

/// Every kernel of `litmus.rs` (and a few more), with its launches.
fn litmus() -> Vec<(String, u32, u32)> {
    let mut v: Vec<(String, u32, u32)> = Vec::new();
    for (scope, ord, fence) in [
        ("device", "RLX", ""),
        ("device", "SC", ""),
        ("device", "RLX", "__threadfence();"),
        ("block", "SC", ""),
        ("block", "RLX", "__threadfence_block();"),
    ] {
        let s = SB
            .replace("SCOPE", scope)
            .replace("ORD", ord)
            .replace("FENCE", fence);
        v.push((s.clone(), 1, 2));
        v.push((s, 2, 1));
    }
    for scope in ["device", "block"] {
        v.push((MP.replace("SCOPE", scope), 1, 2));
        v.push((MP.replace("SCOPE", scope), 2, 1));
        v.push((MP.replace("SCOPE", scope), 1, 3));
    }
    for f in ["__threadfence_block", "__threadfence"] {
        v.push((MP_FENCE.replace("FENCE", f), 1, 2));
        v.push((MP_FENCE.replace("FENCE", f), 2, 1));
    }
    let more = [
        (
            r#"
__global__ void lb(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    if (threadIdx.x == 0) { r[0] = X.load(RLX); Y.store(1, RLX); }
    else { r[1] = Y.load(RLX); X.store(1, RLX); }
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void lb3(int *x, int *r) {
    int t = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> A(x[t]), B(x[(t + 1) % 3]);
    r[t] = A.load(RLX);
    B.store(1, RLX);
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void mp(int *data, int *flag, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(*flag), D(*data);
    if (threadIdx.x == 0) { D.store(1, RLX); F.store(1, RLX); }
    else {
        int a = F.load(RLX);
        int b = D.load(RLX);
        r[0] = a;
        r[1] = b;
    }
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void ww(int *x) {
    x[0] = threadIdx.x;
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void bar(int *x, int *r) {
    if (threadIdx.x == 0) x[0] = 1;
    __syncthreads();
    if (threadIdx.x == 1) r[0] = x[0];
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void bar2(int *x, int *r) {
    x[threadIdx.x] = 1;
    __syncthreads();
    r[threadIdx.x] = x[(threadIdx.x + 1) % 3];
    __syncthreads();
    x[threadIdx.x] = r[threadIdx.x] + 1;
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void barrace(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) X.store(1, RLX);
    __syncthreads();
    r[threadIdx.x] = X.load(RLX);
    X.store(2, RLX);
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void div(int *x) {
    if (threadIdx.x == 0) __syncthreads();
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void divr(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { if (X.load(RLX) == 1) __syncthreads(); }
    else { X.store(1, RLX); __syncthreads(); }
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void cnt(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) X.store(1, RLX);
    int c = __syncthreads_count(X.load(RLX) == 1);
    r[threadIdx.x] = c;
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void sh(int *r) {
    __shared__ int s[1];
    s[0] = blockIdx.x;
}"#,
            2,
            1,
        ),
        (
            r#"
__global__ void corr(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) X.store(1, RLX);
    else { int a = X.load(RLX); int b = X.load(RLX); r[0] = a; r[1] = b; }
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void coww(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { X.store(1, RLX); X.store(2, RLX); }
    else { r[0] = X.load(RLX); }
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void cowr(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    X.store(threadIdx.x + 1, RLX);
    r[threadIdx.x] = X.load(RLX);
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void add(int *x, int *r) {
    r[threadIdx.x] = atomicAdd(x, 1);
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void cas(int *x, int *r) {
    r[threadIdx.x] = atomicCAS(x, 0, threadIdx.x + 1);
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void casrd(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { X.store(1, RLX); X.store(2, RLX); }
    else { r[threadIdx.x] = atomicCAS(x, 1, 5); r[3] = X.load(RLX); }
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void mp(int *data, int *flag) {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(*flag), D(*data);
    if (threadIdx.x == 0) { D.store(1, RLX); F.store(1, RLX); }
    else if (F.load(RLX) == 1) { assert(D.load(RLX) == 1); }
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void ww(int *x) {
    x[0] = threadIdx.x;
    x[1] = threadIdx.x;
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void iriw(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    int t = threadIdx.x;
    if (t == 0) X.store(1, ORD);
    else if (t == 1) Y.store(1, ORD);
    else if (t == 2) { r[0] = X.load(ORD); r[1] = Y.load(ORD); }
    else { r[2] = Y.load(ORD); r[3] = X.load(ORD); }
}"#,
            1,
            4,
        ),
        (
            r#"
__global__ void wrc(int *x, int *y, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
    int t = threadIdx.x;
    if (t == 0) X.store(1, RLX);
    else if (t == 1) { r[0] = X.load(RLX); Y.store(1, REL); }
    else { r[1] = Y.load(ACQ); r[2] = X.load(RLX); }
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void spin(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { X.store(1, REL); }
    else {
        int seen = 0;
        for (int i = 0; i < 2; i++) { if (X.load(ACQ) == 1) { seen = 1; break; } }
        r[threadIdx.x] = seen;
    }
}"#,
            1,
            3,
        ),
        (
            r#"
__global__ void warp(int *x, int *r) {
    x[threadIdx.x] = 1;
    __syncwarp(0x3);
    if (threadIdx.x < 2) r[threadIdx.x] = x[1 - threadIdx.x];
}"#,
            1,
            2,
        ),
        (
            r#"
__global__ void blocks(int *x, int *r) {
    __shared__ int s[2];
    s[threadIdx.x] = blockIdx.x + 1;
    __syncthreads();
    r[blockIdx.x * 2 + threadIdx.x] = s[1 - threadIdx.x];
    atomicAdd(x, r[blockIdx.x * 2 + threadIdx.x]);
}"#,
            2,
            2,
        ),
        (
            r#"
__global__ void chain(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    int t = threadIdx.x;
    if (t == 0) X.store(1, RLX);
    else if (t == 1) r[0] = X.load(RLX);
    else r[t] = X.exchange(t, RLX);
}"#,
            1,
            4,
        ),
        (
            r#"
__global__ void adds(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    int t = threadIdx.x;
    if (t == 0) { r[0] = X.load(RLX); r[1] = X.load(RLX); }
    else r[t + 1] = atomicAdd(x, t);
}"#,
            1,
            4,
        ),
        (
            r#"
__global__ void xchg(int *x, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    if (threadIdx.x == 0) { X.store(1, RLX); r[0] = X.load(RLX); }
    else { r[threadIdx.x] = X.exchange(threadIdx.x + 5, ACQREL); }
}"#,
            1,
            3,
        ),
    ];
    for (s, g, b) in more {
        if s.contains("ORD") {
            v.push((s.replace("ORD", "RLX"), g, b));
            v.push((s.replace("ORD", "SC"), g, b));
        } else {
            v.push((s.to_string(), g, b));
        }
    }
    v
}

#[test]
fn dpor_matches_reference_on_litmus_kernels() {
    let mut total = 0;
    let mut failures = Vec::new();
    for (src, grid, block) in litmus() {
        let k = common::kernel(&format!("{HEADER}{src}"));
        let launch = Launch::new([grid, 1, 1], [block, 1, 1]);
        match compare_kernel(&k, &launch) {
            Ok(n) => total += n,
            Err(e) => failures.push(format!("{e}\n{src} on {grid}x{block}")),
        }
    }
    eprintln!("{} kernels, {total} executions", litmus().len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Explores `k` on one core and on `jobs` workers that share work at every
/// state (as many parts as possible): the same executions in the same
/// order, and the same counts.
fn compare_parallel(k: &Kernel, launch: &Launch, jobs: usize) -> Result<(), String> {
    let config = Config {
        max_states: 20_000,
        ..Config::default()
    };
    let mut one = Exploration::default();
    let s1 = dpor::explore_with(k, launch, &config, &mut one);
    let mut many = Exploration::default();
    let parallel = Config {
        jobs,
        share_eagerly: true,
        ..config
    };
    let sn = dpor::explore_forked(k, launch, &parallel, &mut many);
    match (s1, sn) {
        (Ok(a), Ok(b)) => {
            if a != b {
                return Err(format!("counts differ on {jobs} jobs: {a:?} vs {b:?}"));
            }
            if one.executions != many.executions {
                let first = one
                    .executions
                    .iter()
                    .zip(&many.executions)
                    .position(|(x, y)| x != y);
                return Err(format!(
                    "{jobs} jobs: {} executions vs {}, first difference at {first:?}",
                    one.executions.len(),
                    many.executions.len()
                ));
            }
            Ok(())
        }
        (Err(a), Err(b)) if a.to_string() == b.to_string() => Ok(()),
        (a, b) => Err(format!("one core: {a:?}, {jobs} jobs: {b:?}")),
    }
}

#[test]
fn parallel_dpor_matches_one_core_on_litmus_kernels() {
    let mut failures = Vec::new();
    for (src, grid, block) in litmus() {
        let k = common::kernel(&format!("{HEADER}{src}"));
        let launch = Launch::new([grid, 1, 1], [block, 1, 1]);
        for jobs in [2, 3] {
            if let Err(e) = compare_parallel(&k, &launch, jobs) {
                failures.push(format!("{e}\n{src} on {grid}x{block}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Counts the executions it is not handed whole.
#[derive(Default)]
struct SkipClean {
    clean: usize,
    cut: usize,
    whole: Vec<warpsafe_mc::Execution>,
}

impl warpsafe_mc::Observer for SkipClean {
    fn execution(&mut self, exec: warpsafe_mc::Execution) -> warpsafe_mc::Flow {
        self.whole.push(exec);
        warpsafe_mc::Flow::Continue
    }

    fn needs_clean(&self) -> bool {
        false
    }

    fn clean(&mut self, ending: warpsafe_mc::Ending) -> warpsafe_mc::Flow {
        self.clean += 1;
        self.cut += usize::from(ending != warpsafe_mc::Ending::Complete);
        warpsafe_mc::Flow::Continue
    }
}

#[test]
fn executions_with_nothing_to_report_are_counted_not_built() {
    // Exactly the executions without findings (complete or cut in a loop)
    // are left unbuilt (debug builds also build each and check it has
    // none), in order.
    // Await loops: a lock (executions cut in a wasted iteration, none
    // hangs), a flag nobody sets (every execution hangs: reported), and a
    // loop past the loop bound (cut at the bound).
    let loops = [
        (
            r#"
__global__ void lock(int *l, int *c) {
    cuda::atomic_ref<int, cuda::thread_scope_device> L(*l);
    while (L.exchange(1, ACQ) != 0) {}
    c[0] = c[0] + 1;
    L.store(0, REL);
}"#
            .to_string(),
            1,
            3,
        ),
        (
            r#"
__global__ void wait(int *f) {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(*f);
    while (F.load(RLX) == 0) {}
}"#
            .to_string(),
            1,
            2,
        ),
        (
            r#"
__global__ void count(int *x) {
    cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
    for (int i = 0; i < 100; i++) X.fetch_add(1, RLX);
}"#
            .to_string(),
            1,
            1,
        ),
    ];
    let (mut skipped, mut cut_skipped) = (0, 0);
    for (src, grid, block) in litmus().into_iter().chain(loops) {
        let k = common::kernel(&format!("{HEADER}{src}"));
        let launch = Launch::new([grid, 1, 1], [block, 1, 1]);
        let config = Config::default();
        let Ok(all) = dpor::explore(&k, &launch, &config) else {
            continue;
        };
        let mut obs = SkipClean::default();
        dpor::explore_with(&k, &launch, &config, &mut obs).expect("explores as before");
        let (clean, whole): (Vec<_>, Vec<_>) = all
            .executions
            .into_iter()
            .partition(|e| warpsafe_mc::findings(e).is_empty());
        assert_eq!(obs.clean, clean.len(), "{src}");
        let cut = clean.iter().filter(|e| !e.is_complete()).count();
        assert_eq!(obs.cut, cut, "{src}");
        assert_eq!(obs.whole, whole, "{src}");
        skipped += obs.clean;
        cut_skipped += obs.cut;
    }
    assert!(
        skipped > 100,
        "only {skipped} clean executions in the litmus kernels"
    );
    assert!(cut_skipped > 0, "no clean execution cut in a loop");
}

#[test]
fn parallel_dpor_stops_where_one_core_stops() {
    // LB-6 has 63 executions: a limit inside them fails on both.
    let k = common::kernel(&format!("{HEADER}{}", lb(6)));
    let launch = Launch::new([1, 1, 1], [6, 1, 1]);
    for max in [1, 10, 62, 63, 64] {
        let config = Config {
            max_executions: max,
            ..Config::default()
        };
        let one = dpor::explore(&k, &launch, &config).map(|e| e.executions);
        let mut many = Exploration::default();
        let parallel = Config {
            jobs: 2,
            share_eagerly: true,
            ..config
        };
        let n = dpor::explore_forked(&k, &launch, &parallel, &mut many).map(|_| many.executions);
        assert_eq!(format!("{one:?}"), format!("{n:?}"), "max {max}");
    }
    // An observer that stops at its 10th execution sees the same ten.
    let mut seen = Vec::new();
    let stats = dpor::explore_with(&k, &launch, &Config::default(), &mut |e| {
        seen.push(e);
        if seen.len() == 10 {
            warpsafe_mc::Flow::Stop
        } else {
            warpsafe_mc::Flow::Continue
        }
    })
    .expect("explores");
    assert!(stats.stopped);
    assert_eq!(seen.len(), 10);
}

fn lb(n: u32) -> String {
    format!(
        r#"
__global__ void lb(int *x, int *r) {{
    int t = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> A(x[t]), B(x[(t + 1) % {n}]);
    r[t] = A.load(RLX);
    B.store(1, RLX);
}}"#
    )
}

#[test]
fn lb_n_has_two_to_the_n_minus_one_executions() {
    for n in 2..=8u32 {
        let k = common::kernel(&format!("{HEADER}{}", lb(n)));
        let launch = Launch::new([1, 1, 1], [n, 1, 1]);
        let d = dpor::explore(&k, &launch, &Config::default()).expect("explores");
        assert_eq!(d.executions.len(), (1 << n) - 1, "LB-{n}");
        let (all, set) = keys(&d);
        assert_eq!(all.len(), set.len(), "LB-{n}: a graph produced twice");
        if n <= 4 {
            assert_eq!(compare_kernel(&k, &launch), Ok((1 << n) - 1));
        }
    }
}

#[test]
fn dpor_reports_its_bounds() {
    let k = common::kernel(
        r#"
__global__ void ww(int *x) {
    x[0] = threadIdx.x;
    x[1] = threadIdx.x;
}"#,
    );
    let launch = Launch::new([1, 1, 1], [3, 1, 1]);
    let config = Config {
        max_executions: 5,
        ..Config::default()
    };
    let err = dpor::explore(&k, &launch, &config).expect_err("36 executions");
    assert!(
        matches!(err, warpsafe_mc::McError::TooManyExecutions { limit: 5 }),
        "{err}"
    );
    let ex = dpor::explore(&k, &launch, &Config::default()).expect("explores");
    assert_eq!(ex.executions.len(), 36);
    let k = common::kernel(
        r#"
__global__ void spin(int *x) {
    while (atomicAdd(x, 1) != -1) { }
}"#,
    );
    let config = Config {
        max_steps: 50,
        loop_bound: None,
        ..Config::default()
    };
    let err =
        dpor::explore(&k, &Launch::new([1, 1, 1], [1, 1, 1]), &config).expect_err("spins forever");
    assert!(
        matches!(err, warpsafe_mc::McError::StepLimit { .. }),
        "{err}"
    );
}

/// Coherence-aware `rf` candidates: a read never tries a source `co`-before
/// a write `hb`-before it. One thread storing and loading back one
/// location N times has one execution, and nothing inconsistent is tried
/// (issue 12: 2N²+7 were, and N = 400 took 38 s; see
/// `tests/kernels/litmus/store_load_400.cu`). With two threads, each read
/// still sees its own last store or any later store of the other thread.
#[test]
fn reads_try_only_coherent_sources() {
    let src = |n: u32| {
        format!(
            "{HEADER}
__global__ void sl(int *x) {{
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
  for (int i = 0; i < {n}; i++) {{
    X.store(i + 1, cuda::memory_order_relaxed);
    int v = X.load(cuda::memory_order_relaxed);
    assert(v == i + 1);
  }}
}}"
        )
    };
    let config = Config {
        loop_bound: Some(100),
        ..Config::default()
    };
    let k = common::kernel(&src(60));
    let ex = dpor::explore(&k, &Launch::new([1, 1, 1], [1, 1, 1]), &config).expect("explores");
    assert_eq!(ex.executions.len(), 1);
    assert_eq!(ex.pruned_inconsistent, 0, "nothing inconsistent is tried");
    assert_eq!(ex.assertion_failures().count(), 0);
    // Two threads: the exploration still equals the reference enumerator's
    // (fewer iterations, the reference enumerator is exponential).
    let k2 = common::kernel(&src(2));
    let launch = Launch::new([1, 1, 1], [2, 1, 1]);
    compare_kernel(&k2, &launch).expect("dpor equals the reference");
    let d = dpor::explore(&k2, &launch, &config).expect("explores");
    assert!(
        d.assertion_failures().count() > 0,
        "the other thread's store can be read"
    );
}

/// Timings (run with `cargo test --release -p warpsafe-mc --test dpor --
/// --ignored --nocapture`).
#[test]
#[ignore]
fn lb_n_timings() {
    for n in 2..=8u32 {
        let k = common::kernel(&format!("{HEADER}{}", lb(n)));
        let launch = Launch::new([1, 1, 1], [n, 1, 1]);
        let t = Instant::now();
        let d = dpor::explore(&k, &launch, &Config::default()).expect("explores");
        let dt = t.elapsed();
        assert_eq!(d.executions.len(), (1 << n) - 1, "LB-{n}");
        let (all, set) = keys(&d);
        assert_eq!(all.len(), set.len());
        let rt = if n <= 6 {
            let t = Instant::now();
            let r = reference::explore(&k, &launch, &Config::default()).expect("explores");
            assert_eq!(r.executions.len(), d.executions.len());
            format!("{:?}", t.elapsed())
        } else {
            "-".into()
        };
        eprintln!(
            "LB-{n}: {} executions, {} states, dpor {:?}, reference {rt}",
            d.executions.len(),
            d.states,
            dt
        );
    }
}

// ---- Random small programs (the generator of `random.rs`, plus CAS,
// atomicAdd and barriers, and up to three threads). ----

#[derive(Clone, Debug)]
enum Op {
    Store {
        x: bool,
        val: i32,
        order: u8,
        block: bool,
    },
    Load {
        x: bool,
        order: u8,
        block: bool,
    },
    Exch {
        x: bool,
        val: i32,
        order: u8,
        block: bool,
    },
    Cas {
        x: bool,
        expected: i32,
        val: i32,
    },
    Add {
        x: bool,
    },
    Plain {
        x: bool,
        val: i32,
    },
    PlainLoad {
        x: bool,
    },
    Fence {
        block: bool,
    },
    Barrier,
}

fn op(barriers: bool) -> impl Strategy<Value = Op> {
    let barrier = if barriers { 1 } else { 0 };
    prop_oneof![
        3 => (any::<bool>(), 1..3i32, 0..3u8, any::<bool>())
            .prop_map(|(x, val, order, block)| Op::Store { x, val, order, block }),
        3 => (any::<bool>(), 0..3u8, any::<bool>())
            .prop_map(|(x, order, block)| Op::Load { x, order, block }),
        2 => (any::<bool>(), 1..3i32, 0..3u8, any::<bool>())
            .prop_map(|(x, val, order, block)| Op::Exch { x, val, order, block }),
        1 => (any::<bool>(), 0..2i32, 1..3i32)
            .prop_map(|(x, expected, val)| Op::Cas { x, expected, val }),
        1 => any::<bool>().prop_map(|x| Op::Add { x }),
        1 => (any::<bool>(), 1..3i32).prop_map(|(x, val)| Op::Plain { x, val }),
        1 => any::<bool>().prop_map(|x| Op::PlainLoad { x }),
        1 => any::<bool>().prop_map(|block| Op::Fence { block }),
        barrier => Just(Op::Barrier),
    ]
}

fn render(op: &Op) -> String {
    let var = |x: bool, block: bool| {
        format!(
            "{}{}",
            if x { "X" } else { "Y" },
            if block { "b" } else { "d" }
        )
    };
    let arr = |x: bool| if x { "x" } else { "y" };
    match op {
        Op::Store {
            x,
            val,
            order,
            block,
        } => {
            let o = ["RLX", "REL", "SC"][*order as usize];
            format!("{}.store({val}, {o});", var(*x, *block))
        }
        Op::Load { x, order, block } => {
            let o = ["RLX", "ACQ", "SC"][*order as usize];
            format!("s += {}.load({o});", var(*x, *block))
        }
        Op::Exch {
            x,
            val,
            order,
            block,
        } => {
            let o = ["RLX", "ACQREL", "SC"][*order as usize];
            format!("s += {}.exchange({val}, {o});", var(*x, *block))
        }
        Op::Cas { x, expected, val } => {
            format!("s += atomicCAS(&{}[0], {expected}, {val});", arr(*x))
        }
        Op::Add { x } => format!("s += atomicAdd(&{}[0], 1);", arr(*x)),
        Op::Plain { x, val } => format!("{}[0] = {val};", arr(*x)),
        Op::PlainLoad { x } => format!("s += {}[0];", arr(*x)),
        Op::Fence { block: true } => "__threadfence_block();".into(),
        Op::Fence { block: false } => "__threadfence();".into(),
        Op::Barrier => "__syncthreads();".into(),
    }
}

fn program(threads: &[Vec<Op>]) -> String {
    let body = |ops: &[Op]| {
        ops.iter()
            .map(render)
            .collect::<Vec<_>>()
            .join("\n        ")
    };
    let mut branches = String::new();
    for (i, ops) in threads.iter().enumerate() {
        if i + 1 < threads.len() {
            branches += &format!("if (t == {i}) {{\n        {}\n    }} else ", body(ops));
        } else {
            branches += &format!("{{\n        {}\n    }}", body(ops));
        }
    }
    format!(
        r#"
__global__ void k(int *x, int *y, int *r) {{
    cuda::atomic_ref<int, cuda::thread_scope_block> Xb(x[0]), Yb(y[0]);
    cuda::atomic_ref<int, cuda::thread_scope_device> Xd(x[0]), Yd(y[0]);
    int s = 0;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    {branches}
    r[t] = s;
}}"#
    )
}

fn cases() -> u32 {
    std::env::var("DPOR_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// The bound on ops per thread (exclusive), `DPOR_OPS` for stress runs.
fn ops() -> usize {
    std::env::var("DPOR_OPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

fn check_random(threads: &[Vec<Op>], launch: Launch) -> Result<(), TestCaseError> {
    let src = program(threads);
    let k = common::kernel(&format!("{HEADER}{src}"));
    if let Err(e) = compare_parallel(&k, &launch, 3) {
        return Err(TestCaseError::fail(format!("{e}\n{src}")));
    }
    match compare_kernel(&k, &launch) {
        Ok(_) => Ok(()),
        // Too big for the reference enumerator (with a large `DPOR_OPS`).
        Err(e) if e.starts_with("reference: more than") => {
            if std::env::var_os("DPOR_VERBOSE").is_some() {
                eprintln!("skipped: too big for the reference enumerator");
            }
            Ok(())
        }
        Err(e) => Err(TestCaseError::fail(format!("{e}\n{src}"))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn dpor_matches_reference_on_random_programs(
        t0 in prop::collection::vec(op(false), 1..ops()),
        t1 in prop::collection::vec(op(false), 1..ops()),
        same_block in any::<bool>(),
    ) {
        let launch = if same_block {
            Launch::new([1, 1, 1], [2, 1, 1])
        } else {
            Launch::new([2, 1, 1], [1, 1, 1])
        };
        check_random(&[t0, t1], launch)?;
    }

    #[test]
    fn dpor_matches_reference_on_random_three_thread_programs(
        t0 in prop::collection::vec(op(true), 1..ops()),
        t1 in prop::collection::vec(op(true), 1..ops()),
        t2 in prop::collection::vec(op(true), 1..ops() - 1),
        same_block in any::<bool>(),
    ) {
        let launch = if same_block {
            Launch::new([1, 1, 1], [3, 1, 1])
        } else {
            Launch::new([3, 1, 1], [1, 1, 1])
        };
        check_random(&[t0, t1, t2], launch)?;
    }
}

proptest! {
    // Four threads: the reference enumerator is slow in debug builds.
    #![proptest_config(ProptestConfig { cases: cases() / 4, ..ProptestConfig::default() })]

    #[test]
    fn dpor_matches_reference_on_random_four_thread_programs(
        t0 in prop::collection::vec(op(true), 1..ops() - 1),
        t1 in prop::collection::vec(op(true), 1..ops() - 1),
        t2 in prop::collection::vec(op(true), 1..ops() - 1),
        t3 in prop::collection::vec(op(true), 1..ops() - 1),
        grid in 1..3u32,
    ) {
        check_random(&[t0, t1, t2, t3], Launch::new([grid, 1, 1], [4 / grid, 1, 1]))?;
    }
}
