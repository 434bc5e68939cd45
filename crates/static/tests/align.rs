//! Barrier aligning (seed 002 §4.1) in the race check, on kernels compiled
//! by the real front end. Needs z3 on PATH.

mod common;

use common::kernels;
use warpsafe_ir::Kernel;
use warpsafe_static::{
    check_kernel, Certainty, KernelReport, RaceConfig, RaceScope, Verdict,
    NO_BARRIER_ITERATION_REASON, UNKNOWN_LOOP_DIVERGENCE_REASON,
};

fn kernel(text: &str) -> Kernel {
    kernels(text)
        .into_iter()
        .next()
        .expect("test kernel lowers")
}

fn check(k: &Kernel) -> KernelReport {
    let r = check_kernel(k, &RaceConfig::default());
    println!("{:#?}\n{:#?}", r.verdict, r.notes);
    r
}

/// A 1-D launch of 256 threads per block, 4 blocks.
fn check_1d(text: &str) -> KernelReport {
    let mut k = kernel(text);
    k.launch.block = Some([256, 1, 1]);
    k.launch.grid = Some([4, 1, 1]);
    check(&k)
}

fn reduction_text() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/reduction.cu"
    ))
    .expect("example")
}

fn block_sum(text: &str) -> Kernel {
    kernels(text)
        .into_iter()
        .find(|k| k.name == "blockSum")
        .expect("blockSum")
}

/// The divergent barriers, checking each witness: two threads of one
/// block.
fn divergences(r: &KernelReport) -> &[warpsafe_static::Divergence] {
    match &r.verdict {
        Verdict::Divergent(ds) => {
            assert!(!ds.is_empty(), "at least one divergent barrier");
            for d in ds {
                let [a, b] = d.threads.expect("a witness");
                assert_eq!(a.block_idx, b.block_idx, "the two threads share a block");
                assert_ne!(a.thread_idx, b.thread_idx, "two distinct threads");
            }
            ds
        }
        v => panic!("expected DIVERGENT, got {v:?}"),
    }
}

/// The first divergent barrier.
fn divergence(r: &KernelReport) -> &warpsafe_static::Divergence {
    &divergences(r)[0]
}

fn unknown_reason(r: &KernelReport) -> &str {
    match &r.verdict {
        Verdict::Unknown { reason, span } => {
            assert!(span.is_some(), "no span");
            reason
        }
        v => panic!("expected UNKNOWN, got {v:?}"),
    }
}

/// The reduction's loop `s = blockDim.x / 2; s > 0; s >>= 1` has a `>>`
/// step: the previous iteration is linked by `cur = prev >> 1`.
#[test]
fn reduction_with_its_launch_of_256_is_drf() {
    let k = block_sum(&reduction_text());
    assert_eq!(k.launch.block, Some([256, 1, 1]));
    assert_eq!(check(&k).verdict, Verdict::Drf);
}

#[test]
fn reduction_with_symbolic_1d_block_is_drf() {
    // Symbolic blockDim.x (and grid); the kernel indexes by threadIdx.x
    // and blockIdx.x only, so 2-D blocks or grids would race: require 1-D.
    let text = reduction_text().replace(
        "unsigned tid = threadIdx.x;",
        "__requires(blockDim.y == 1); __requires(blockDim.z == 1); \
         __requires(gridDim.y == 1); __requires(gridDim.z == 1); unsigned tid = threadIdx.x;",
    );
    let mut k = block_sum(&text);
    k.launch.block = None;
    k.launch.grid = None;
    assert_eq!(check(&k).verdict, Verdict::Drf);
}

#[test]
fn reduction_reading_the_wrong_partner_is_racy() {
    // `sdata[tid + s - 1]`: thread s-1 writes what thread 0 reads, in the
    // same iteration (s >= 2).
    let text = reduction_text().replace("sdata[tid + s]", "sdata[tid + s - 1]");
    let r = check(&block_sum(&text));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].scope, RaceScope::SameBlock);
    let w = races[0].witness.as_ref().expect("witness");
    let s = w
        .loop_vars
        .iter()
        .find(|l| l.thread == 0 && l.name.starts_with('s'))
        .expect("shared s in the witness");
    assert!(s.value >= 2, "{w:?}");
    // The step `>>= 1` is modelled (`s = 128 >> j` for 256 threads): the
    // witness's `s` is a value the loop takes, and the race is provable.
    assert!([2, 4, 8, 16, 32, 64, 128].contains(&s.value), "{w:?}");
    assert_eq!(races[0].certainty, Certainty::Provable, "{w:?}");
}

#[test]
fn reduction_without_the_loop_barrier_is_racy() {
    let text = reduction_text().replace(
        "sdata[tid] += sdata[tid + s];\n        __syncthreads();",
        "sdata[tid] += sdata[tid + s];",
    );
    assert!(check(&block_sum(&text)).verdict.is_racy());
}

const ONE_BARRIER: &str = "__global__ void k(int *out, int n) {
    __shared__ int s[257];
    int x = 0;
    for (int i = 0; i < n; i++) {
        s[threadIdx.x] = i;
        __syncthreads();
        x += s[threadIdx.x + 1];
        SECOND
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}";

/// Iteration `i` reads `s[t+1]` after the barrier; iteration `i+1` writes
/// `s[t+1]` (thread t+1) before the next barrier: nothing orders them.
#[test]
fn read_after_barrier_races_with_next_iterations_write() {
    let r = check_1d(&ONE_BARRIER.replace("SECOND", ""));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    let race = &races[0];
    assert_eq!(race.array_name, "s");
    assert_eq!(race.scope, RaceScope::SameBlock);
    assert_eq!(race.certainty, Certainty::Provable);
    let w = race.witness.as_ref().expect("witness");
    let value = |name: &str| {
        w.loop_vars
            .iter()
            .find(|l| l.thread == 0 && l.name == name)
            .unwrap_or_else(|| panic!("{name} in {w:?}"))
            .value
    };
    assert_eq!(value("i"), value("i (previous iteration)") + 1);
    let n = w.params.iter().find(|p| p.0 == "n").expect("n").1;
    assert!(n >= 2, "{w:?}");
    let (t1, t2) = (w.threads[0].thread_idx[0], w.threads[1].thread_idx[0]);
    assert_eq!(t1.abs_diff(t2), 1);
}

#[test]
fn decreasing_loop_links_the_previous_iteration_upwards() {
    // The inference guards the loop with `n < INT_MAX` (else an unknown
    // loop): the precondition makes that branch dead, which aligning
    // proves and skips.
    let r = check_1d(
        "__global__ void k(int *out, int n) {
            __shared__ int s[257];
            int x = 0;
            __requires(n < 1000);
            for (int i = n; i > 0; i--) {
                s[threadIdx.x] = i;
                __syncthreads();
                x += s[threadIdx.x + 1];
            }
            out[blockIdx.x * blockDim.x + threadIdx.x] = x;
        }",
    );
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    let w = races[0].witness.as_ref().expect("witness");
    let value = |name: &str| {
        w.loop_vars
            .iter()
            .find(|l| l.thread == 0 && l.name == name)
            .unwrap_or_else(|| panic!("{name} in {w:?}"))
            .value
    };
    assert_eq!(value("i"), value("i (previous iteration)") - 1);
}

/// Double buffering: iteration `i` reads buffer `i % 2` after the barrier
/// while iteration `i + 1` writes the other buffer. Only the link between
/// consecutive iterations (`cur = prev + 1`) shows this is DRF.
#[test]
fn double_buffering_is_drf_thanks_to_the_iteration_link() {
    let r = check_1d(
        "__global__ void k(int *out, unsigned n) {
            __shared__ int buf[512];
            int x = 0;
            for (unsigned i = 0; i < n; i++) {
                buf[(i % 2) * 256 + threadIdx.x] = i;
                __syncthreads();
                x += buf[(i % 2) * 256 + (threadIdx.x + 1) % 256];
            }
            out[blockIdx.x * blockDim.x + threadIdx.x] = x;
        }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn second_barrier_after_the_read_makes_the_loop_drf() {
    let r = check_1d(&ONE_BARRIER.replace("SECOND", "__syncthreads();"));
    assert_eq!(r.verdict, Verdict::Drf);
}

/// Listing 2.3 of seed 002 (the transpose loop of Listing 2.1): `rd[tid+j]`
/// of iteration r-1 races with `wr[tid]` of iteration r.
const LISTING_2_3: &str = "__global__ void k(const float *in, float *out, int N, int M) {
    __shared__ float tile[1024];
    for (int r = 0; r < N; r++) {
        for (int i = 0; i < M; i++)
            tile[threadIdx.x] = in[i];
        __syncthreads();
        for (int j = 0; j < M; j++)
            out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x + j];
        END
    }
}";

#[test]
fn listing_2_3_is_racy_across_iterations() {
    let mut k = kernel(&LISTING_2_3.replace("END", ""));
    k.launch.block = Some([256, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    let r = check(&k);
    let races: Vec<_> = r
        .verdict
        .races()
        .iter()
        .filter(|r| r.array_name == "tile")
        .collect();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    let w = races[0].witness.as_ref().expect("witness");
    let param = |n: &str| w.params.iter().find(|p| p.0 == n).expect("param").1;
    assert!(param("N") > 1 && param("M") > 1, "{w:?}");
    assert!(w
        .loop_vars
        .iter()
        .any(|l| l.thread == 0 && l.name == "r (previous iteration)"));
}

#[test]
fn listing_2_3_with_a_barrier_at_the_end_of_the_loop_is_drf() {
    let mut k = kernel(&LISTING_2_3.replace("END", "__syncthreads();"));
    k.launch.block = Some([256, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    let r = check(&k);
    assert!(
        r.verdict.races().iter().all(|r| r.array_name != "tile"),
        "{:?}",
        r.verdict
    );
    // `out` is written by every `j`: only same-thread overwrites, and `in`
    // is read only: DRF.
    assert_eq!(r.verdict, Verdict::Drf);
}

const UNIFORM_IF: &str = "__global__ void k(int *out) {
    __shared__ int s[256];
    if (blockIdx.x == 0) {
        s[threadIdx.x] = 1;
        BARRIER
        out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
    }
}";

#[test]
fn barrier_under_a_uniform_condition_is_handled() {
    let r = check_1d(&UNIFORM_IF.replace("BARRIER", "__syncthreads();"));
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn race_under_a_uniform_condition_with_a_barrier_is_found() {
    // The read before the barrier races with the neighbour's write.
    let r = check_1d(&UNIFORM_IF.replace(
        "BARRIER",
        "out[blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x]; __syncthreads();",
    ));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].array_name, "s");
}

#[test]
fn barrier_under_a_thread_dependent_condition_is_divergent() {
    let r = check_1d(
        "__global__ void k(int *out) {
            __shared__ int s[256];
            if (threadIdx.x < 16) {
                s[threadIdx.x] = 1;
                __syncthreads();
                out[threadIdx.x] = s[(threadIdx.x + 1) % 16];
            }
        }",
    );
    let d = divergence(&r);
    assert_eq!(d.certainty, warpsafe_static::Certainty::Provable);
    let [a, b] = d.threads.expect("a witness");
    // One thread is below 16, the other is not.
    assert_ne!(a.thread_idx[0] < 16, b.thread_idx[0] < 16, "{d:?}");
}

#[test]
fn early_return_before_a_barrier_is_divergent() {
    let r = check_1d(
        "__global__ void k(int *out, int n) {
            __shared__ int s[256];
            if (threadIdx.x >= n) return;
            s[threadIdx.x] = 1;
            __syncthreads();
            out[threadIdx.x] = s[0];
        }",
    );
    divergence(&r);
}

#[test]
fn early_return_of_whole_blocks_is_handled() {
    // `blockIdx.x >= n` is the same for every thread of a block.
    let r = check_1d(
        "__global__ void k(int *out, int n) {
            __shared__ int s[256];
            if (blockIdx.x >= n) return;
            s[threadIdx.x] = 1;
            __syncthreads();
            out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 256];
        }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn barrier_in_a_branch_uses_the_path_without_it_too() {
    // When blockIdx.x != 0 there is no barrier between the read and the
    // write: a race on that path.
    let r = check_1d(
        "__global__ void k(int *out) {
            __shared__ int s[257];
            s[threadIdx.x] = 1;
            if (blockIdx.x == 0) { __syncthreads(); }
            out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x + 1];
        }",
    );
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert!(matches!(races[0].certainty, Certainty::Possible { .. }));
}

const MAYBE_EMPTY: &str = "__global__ void k(int *out, int n) {
    __shared__ int s[257];
    REQUIRES
    s[threadIdx.x] = 1;
    __syncthreads();
    int x = s[threadIdx.x + 1];
    for (int i = 0; i < n; i++) {
        __syncthreads();
    }
    s[threadIdx.x] = x;
}";

/// With `n <= 0` the loop runs zero times and the read before it meets the
/// write after it: the aligned loop alone would hide that.
#[test]
fn possibly_empty_synchronized_loop_checks_the_zero_iteration_path() {
    let r = check_1d(&MAYBE_EMPTY.replace("REQUIRES", ""));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert!(matches!(races[0].certainty, Certainty::Possible { .. }));
}

#[test]
fn synchronized_loop_proved_non_empty_separates_the_phases() {
    let r = check_1d(&MAYBE_EMPTY.replace("REQUIRES", "__requires(n > 0);"));
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn loop_bounds_depending_on_the_thread_are_divergent() {
    let r = check_1d(
        "__global__ void k(int *out) {
            __shared__ int s[256];
            for (unsigned i = 0; i < threadIdx.x; i++) { s[threadIdx.x] = i; __syncthreads(); }
        }",
    );
    assert!(divergence(&r).reason.contains("loop"), "{:?}", r.verdict);
}

#[test]
fn every_divergent_barrier_is_reported_with_its_own_witness() {
    // Two divergent conditionals (three barriers), a uniform one between
    // them, and a loop whose trip count depends on the thread.
    let r = check_1d(
        "__global__ void k(int *out, int n) {
            __shared__ int s[256];
            if (threadIdx.x < 16) { __syncthreads(); } else { __syncthreads(); }
            if (n > 3) { __syncthreads(); }
            if (threadIdx.x == 5) { s[threadIdx.x] = 1; __syncthreads(); }
            for (unsigned i = 0; i < threadIdx.x % 4; i++) { __syncthreads(); s[threadIdx.x] = i; __syncthreads(); }
        }",
    );
    let ds = divergences(&r);
    let lines: Vec<u32> = ds.iter().map(|d| d.span.lo).collect();
    assert_eq!(ds.len(), 5, "{ds:#?}");
    assert!(
        lines.windows(2).all(|w| w[0] < w[1]),
        "program order: {lines:?}"
    );
    // The uniform `n > 3` barrier is not among them.
    let text_of = |d: &warpsafe_static::Divergence| d.reason.clone();
    assert!(
        ds[..3].iter().all(|d| !text_of(d).contains("loop")),
        "{ds:#?}"
    );
    assert!(
        ds[3..].iter().all(|d| text_of(d).contains("loop")),
        "{ds:#?}"
    );
    // The `== 5` barrier: exactly one of its two threads is thread 5.
    let [a, b] = ds[2].threads.expect("witness");
    assert_ne!(a.thread_idx[0] == 5, b.thread_idx[0] == 5, "{:?}", ds[2]);
    // The loop: the two threads run different numbers of iterations.
    let [a, b] = ds[3].threads.expect("witness");
    assert_ne!(a.thread_idx[0] % 4, b.thread_idx[0] % 4, "{:?}", ds[3]);
}

/// A loop of unknown iteration count whose exit depends on a global value
/// (another block may change it): its barrier may diverge.
#[test]
fn barrier_in_a_loop_left_on_a_global_value_may_diverge() {
    let r = check_1d(
        "__global__ void k(int *out) {
            __shared__ int s[256];
            while (out[0] > 0) { s[threadIdx.x] = 1; __syncthreads(); }
        }",
    );
    let d = divergence(&r);
    assert_eq!(
        d.reason,
        UNKNOWN_LOOP_DIVERGENCE_REASON
            .replace("may differ", "differs")
            .replace(" (possible barrier divergence)", "")
    );
    assert!(matches!(d.certainty, Certainty::Possible { .. }), "{d:?}");
}

/// `while (true)` left when a shared flag, set before a barrier and read
/// after it, says so: the whole block leaves together, and the phases of
/// an iteration that leaves do not meet the next iteration's.
#[test]
fn barrier_in_a_loop_left_on_a_quiet_shared_flag_aligns() {
    let r = check_1d(
        "__global__ void k(int *g) {
            __shared__ int done; __shared__ int s[256];
            s[threadIdx.x] = g[blockIdx.x * 256 + threadIdx.x];
            while (true) {
                if (threadIdx.x == 0) done = s[0] > 100;
                __syncthreads();
                if (done) break;
                int v = s[255 - threadIdx.x] + 1;
                __syncthreads();
                s[threadIdx.x] = v;
            }
            g[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];
        }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

/// The same loop with the flag set by every thread from its own slot: the
/// threads may leave at different iterations.
#[test]
fn barrier_in_a_loop_left_on_a_per_thread_value_diverges() {
    let r = check_1d(
        "__global__ void k(int *g) {
            __shared__ int s[256];
            s[threadIdx.x] = g[blockIdx.x * 256 + threadIdx.x];
            while (true) {
                __syncthreads();
                if (s[threadIdx.x] > 100) break;
                int v = s[255 - threadIdx.x] + 1;
                __syncthreads();
                s[threadIdx.x] = v;
            }
        }",
    );
    let d = divergence(&r);
    assert!(d.reason.contains("iteration count differs"), "{d:?}");
}

/// A doubling counter that may wrap (`unsigned` up to a parameter) is no
/// exact count, but every thread starts and steps it alike: its barriers
/// align, and a loop-carried variable stepped alike does not diverge.
#[test]
fn counters_stepped_alike_in_every_thread_align() {
    let r = check_1d(
        "__global__ void k(unsigned *g, unsigned size) {
            __shared__ unsigned s[256];
            s[threadIdx.x] = g[threadIdx.x];
            unsigned r = 0;
            for (unsigned offset = 1; offset < size; offset <<= 1) {
                __syncthreads();
                unsigned t = s[threadIdx.x] + s[(threadIdx.x + offset) % 256];
                __syncthreads();
                s[threadIdx.x] = t;
                r = r * 2 + 1;
                if (r > 1000) { __syncthreads(); }
            }
            g[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];
        }",
    );
    assert!(
        !matches!(r.verdict, Verdict::Divergent(_) | Verdict::Unknown { .. }),
        "{:?}",
        r.verdict
    );
}

/// Barriers do not order blocks: a synchronized loop's variable is each
/// block's own in cross-block queries.
#[test]
fn synchronized_loop_variables_are_per_block_across_blocks() {
    let r = check_1d(
        "__global__ void k(int *g) {
            for (int i = 0; i < 4; i++) {
                if (threadIdx.x == 0) g[blockIdx.x + i] = i;
                __syncthreads();
            }
        }",
    );
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].scope, RaceScope::CrossBlock);
}

const NESTED: &str = "__global__ void k(const int *in, int *out, int n, int m) {
    __shared__ int s[256];
    REQUIRES
    int acc = 0;
    for (int a = 0; a < n; a++) {
        for (int b = 0; b < m; b++) {
            s[threadIdx.x] = in[a * m + b];
            __syncthreads();
            acc += s[(threadIdx.x + a + b) % 256];
            __syncthreads();
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}";

#[test]
fn nested_synchronized_loops_are_aligned() {
    // A loop nest with barriers at both levels: DRF.
    let r = check_1d(&NESTED.replace("REQUIRES", "__requires(m > 0);"));
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn inner_synchronized_loop_that_may_be_empty_is_unknown() {
    // With m <= 0 an outer iteration passes no barrier: not supported.
    let r = check_1d(&NESTED.replace("REQUIRES", ""));
    assert_eq!(unknown_reason(&r), NO_BARRIER_ITERATION_REASON);
}

#[test]
fn nested_synchronized_loops_race_across_outer_iterations() {
    // The last read of the inner loop meets the next outer iteration's
    // first write (the inner loop has no barrier after its read).
    let r = check_1d(
        "__global__ void k(const int *in, int *out, int n) {
            __shared__ int s[256];
            int acc = 0;
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < 4; b++) {
                    __syncthreads();
                    acc += s[(threadIdx.x + 1) % 256];
                }
                s[threadIdx.x] = in[a];
            }
            out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
        }",
    );
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].array_name, "s");
}

/// Small kernels and their expected verdict: `true` racy, `false` DRF.
#[test]
fn phase_boundaries_around_synchronized_loops() {
    let cases: [(&str, &str, bool); 6] = [
        (
            "last iteration's tail meets the code after the loop",
            "for (int i = 0; i < n; i++) { __syncthreads(); s[threadIdx.x] = i; }
             x = s[threadIdx.x + 1];",
            true,
        ),
        (
            "code before the loop meets the first iteration's head",
            "s[threadIdx.x] = 1;
             for (int i = 0; i < n; i++) { x += s[threadIdx.x + 1]; __syncthreads(); }",
            true,
        ),
        (
            "a closed phase inside the loop body",
            "for (int i = 0; i < n; i++) {
                 __syncthreads(); s[threadIdx.x] = 1; x += s[threadIdx.x + 1]; __syncthreads(); }",
            true,
        ),
        (
            "the >>-step loop's last iteration meets the read after it",
            "for (unsigned st = 128; st > 0; st >>= 1) {
                 __syncthreads();
                 if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st]; }
             x = s[0];",
            true,
        ),
        (
            "barriers in both branches of a condition on the loop variable",
            "for (int i = 0; i < n; i++) {
                 if (i % 2 == 0) { s[threadIdx.x] = 1; __syncthreads(); }
                 else { x += s[threadIdx.x + 1]; __syncthreads(); } }",
            false,
        ),
        (
            "the iteration's own writes, barriers separating iterations",
            "for (int i = 0; i < 4; i++) {
                 s[threadIdx.x + i] = 1; __syncthreads(); if (i < 3) { __syncthreads(); } }",
            false,
        ),
    ];
    for (what, body, racy) in cases {
        let text = format!(
            "__global__ void k(int *out, int n) {{
                __shared__ int s[512]; int x = 0;
                {body}
                out[blockIdx.x * blockDim.x + threadIdx.x] = x; }}"
        );
        let r = check_1d(&text);
        if racy {
            let races = r.verdict.races();
            assert!(
                races.len() == 1 && races[0].array_name == "s",
                "{what}: {:?}",
                r.verdict
            );
        } else {
            assert_eq!(r.verdict, Verdict::Drf, "{what}");
        }
    }
}

/// The last iteration of a strided synchronized loop is the value whose
/// step leaves the range (`s = 128` for `s *= 2` below 256): its tail meets
/// the code after the loop, earlier iterations' tails do not.
#[test]
fn last_iteration_of_a_geometric_loop_is_pinned() {
    let text = "__global__ void k(int *out) {
        __shared__ int buf[256];
        unsigned tid = threadIdx.x;
        for (unsigned s = 1; s < 256; s *= 2) {
            __syncthreads();
            if (tid == s) buf[s] = 1;
        }
        if (tid == 0) out[blockIdx.x] = buf[READ];
    }";
    let r = check_1d(&text.replace("READ", "64"));
    assert_eq!(r.verdict, Verdict::Drf);
    let r = check_1d(&text.replace("READ", "128"));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].certainty, Certainty::Provable);
    let w = races[0].witness.as_ref().expect("witness");
    assert!(
        w.loop_vars
            .iter()
            .any(|l| l.name.starts_with('s') && l.value == 128),
        "{w:?}"
    );
}

/// A counting loop with barriers left early when no thread of the block
/// changed anything (`__syncthreads_or`, the same for the whole block):
/// read as a loop of unknown trip count, it aligns.
#[test]
fn a_counting_loop_left_on_a_barrier_reduction_aligns() {
    let r = check_1d(
        "__global__ void k(float *x, int max_iter) {
            __shared__ float s[256];
            unsigned tid = threadIdx.x;
            s[tid] = x[blockIdx.x * 256 + tid];
            __syncthreads();
            for (int it = 0; it < max_iter; it++) {
                float v = 0.5f * (s[(tid + 255) % 256] + s[(tid + 1) % 256]);
                int changed = v != s[tid];
                __syncthreads();
                s[tid] = v;
                if (!__syncthreads_or(changed)) break;
            }
            x[blockIdx.x * 256 + tid] = s[tid];
        }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

/// The same loop left on each thread's own `changed`: divergent.
#[test]
fn a_counting_loop_left_on_a_per_thread_value_diverges() {
    let r = check_1d(
        "__global__ void k(float *x, int max_iter) {
            __shared__ float s[256];
            unsigned tid = threadIdx.x;
            s[tid] = x[blockIdx.x * 256 + tid];
            __syncthreads();
            for (int it = 0; it < max_iter; it++) {
                float v = 0.5f * (s[(tid + 255) % 256] + s[(tid + 1) % 256]);
                int changed = v != s[tid];
                __syncthreads();
                s[tid] = v;
                __syncthreads();
                if (!changed) break;
            }
            x[blockIdx.x * 256 + tid] = s[tid];
        }",
    );
    let d = divergence(&r);
    assert!(d.reason.contains("iteration count differs"), "{d:?}");
}
