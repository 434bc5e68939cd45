//! The v0 data-race check on kernels compiled by the real front end.
//! Needs z3 on PATH.

mod common;

use common::kernels;
use warpsafe_ir::Kernel;
use warpsafe_static::{
    check_kernel, Certainty, KernelReport, RaceConfig, RaceScope, Verdict, ALIGNING_REASON,
};

fn kernel(text: &str) -> Kernel {
    kernels(text)
        .into_iter()
        .next()
        .expect("test kernel lowers")
}

fn check(k: &Kernel) -> KernelReport {
    let r = check_kernel(k, &RaceConfig::default().with_transcript(true));
    println!("{:#?}", r.verdict);
    r
}

fn check_text(text: &str) -> KernelReport {
    check(&kernel(text))
}

/// With symbolic dimensions, 1-D index formulas really race in 2-D and 3-D
/// launches (threads that differ only in `threadIdx.y`): pin a 1-D launch.
fn check_1d(text: &str) -> KernelReport {
    let mut k = kernel(text);
    k.launch.block = Some([256, 1, 1]);
    k.launch.grid = Some([4, 1, 1]);
    check(&k)
}

#[test]
fn straight_line_distinct_indices_are_drf() {
    let r = check_1d("__global__ void k(int *a) { int tid = blockIdx.x * blockDim.x + threadIdx.x; a[tid] = tid; }");
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn same_slot_written_by_all_threads_is_a_provable_race() {
    let r = check_text("__global__ void k(int *a) { a[0] = threadIdx.x; }");
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    let race = &races[0];
    assert_eq!(race.certainty, Certainty::Provable);
    let w = race.witness.as_ref().expect("witness");
    assert_ne!(w.threads[0], w.threads[1]);
    assert_eq!(w.index, 0);
    assert!(r
        .transcript
        .expect("transcript")
        .to_string()
        .contains("check-sat"));
}

const SHARED: &str = "__global__ void k(int *out) { __shared__ int s[256];
    s[threadIdx.x] = threadIdx.x; BARRIER
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x]; }";

#[test]
fn shared_write_then_read_across_a_barrier_is_drf() {
    let r = check_1d(&SHARED.replace("BARRIER", "__syncthreads();"));
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn shared_write_then_read_without_a_barrier_is_racy() {
    let r = check_1d(&SHARED.replace("BARRIER", ""));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].array_name, "s");
    assert_eq!(races[0].scope, RaceScope::SameBlock);
    assert_eq!(races[0].certainty, Certainty::Provable);
    let w = races[0].witness.as_ref().expect("witness");
    assert_eq!(w.threads[0].block_idx, w.threads[1].block_idx);
}

#[test]
fn same_global_index_in_two_blocks_is_a_cross_block_race() {
    let mut k = kernel("__global__ void k(int *a) { a[threadIdx.x] = blockIdx.x; }");
    k.launch.block = Some([32, 1, 1]);
    k.launch.grid = Some([2, 1, 1]);
    let r = check(&k);
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].scope, RaceScope::CrossBlock);
    let w = races[0].witness.as_ref().expect("witness");
    assert_ne!(w.threads[0].block_idx, w.threads[1].block_idx);
    assert_eq!(w.threads[0].thread_idx, w.threads[1].thread_idx);
    assert_eq!(
        w.grid_dim, None,
        "concrete dims are not part of the witness"
    );
    // One block: no other block to race with.
    k.launch.grid = Some([1, 1, 1]);
    assert_eq!(check(&k).verdict, Verdict::Drf);
}

#[test]
fn atomics_on_one_address_are_drf() {
    let r = check_text("__global__ void k(int *c) { atomicAdd(&c[0], 1); }");
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn atomic_and_plain_access_race() {
    let r = check_text(
        "__global__ void k(int *c) { atomicAdd(&c[0], 1); if (threadIdx.x == 0) c[0] = 0; }",
    );
    assert!(r.verdict.is_racy(), "{:?}", r.verdict);
}

#[test]
fn index_through_a_loaded_value_is_a_possible_race() {
    let r = check_text("__global__ void k(int *a, int *idx) { a[idx[threadIdx.x]] = 1; }");
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    let Certainty::Possible { reasons } = &races[0].certainty else {
        panic!("{:?}", races[0].certainty)
    };
    assert!(
        reasons.iter().any(|r| r.contains("loaded from `idx`")),
        "{reasons:?}"
    );
}

const GRID_STRIDE: &str =
    "__global__ void g(int *a, int n) { int gid = blockIdx.x * blockDim.x + threadIdx.x;
     for (int i = gid; i < n; i += blockDim.x * gridDim.x) a[i] = 1; }";

/// The grid-stride loop keeps its stride (seed 002 §5): `i = gid + k *
/// blockDim.x * gridDim.x`, so distinct threads never meet.
#[test]
fn grid_stride_loop_is_drf() {
    assert_eq!(check_1d(GRID_STRIDE).verdict, Verdict::Drf);
}

/// With every block shape allowed (`--all-dims`) the kernel really races:
/// threads that differ only in `threadIdx.y` share `gid`. The stride is
/// used (the witness is a value of the loop: no reason says otherwise),
/// and the race needs `blockDim.y > 1`, so it is *possible*: the only
/// reason is the question of every launch (`universal`), which finds
/// 1-D blocks clean or gives up. (With the unread dimensions assumed 1,
/// as by default, it is DRF: this test once expected a provable race
/// there, which was false; see the next test.)
#[test]
fn grid_stride_loop_with_symbolic_dims_races_for_some_block_shapes() {
    let mut k = kernel(GRID_STRIDE);
    k.launch.forget_inferred();
    let races = check(&k).verdict.races().to_vec();
    assert_eq!(races.len(), 1);
    let Certainty::Possible { reasons } = &races[0].certainty else {
        panic!("{:?}", races[0].certainty);
    };
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(
        reasons[0].starts_with("only for some launches")
            || reasons[0].starts_with("not shown to happen for every launch"),
        "{reasons:?}"
    );
}

/// A 1-D launch with symbolic sizes: the symbolic stride's constraint is
/// nonlinear; the grid-stride lemma (`stride::congruence`) lets the solver
/// refute it, so the kernel is DRF (it was a *possible* race, the solver
/// giving up on the step).
#[test]
fn symbolic_grid_stride_is_proven_with_the_grid_stride_lemma() {
    let text = GRID_STRIDE.replace(
        "{ int gid",
        "{ __requires(blockDim.y == 1); __requires(blockDim.z == 1); \
         __requires(gridDim.y == 1); __requires(gridDim.z == 1); \
         __requires(gridDim.x <= 4096); int gid",
    );
    assert_eq!(check_text(&text).verdict, Verdict::Drf);
    assert_eq!(check_text(GRID_STRIDE).verdict, Verdict::Drf);
}

/// A grid-stride loop whose body steps a pointer by the row length
/// (`paths + i + t * n`, Monte Carlo paths stored time step by time
/// step): the index is a 64-bit sum of widened 32-bit values. The row
/// lemma's exactness for such sums (all three in `0..2^32`), the 32-bit
/// bound `gid < gridDim.x * blockDim.x`, and the no-overflow fact of the
/// widened product without a 128-bit multiplier let the grid-stride lemma
/// refute it (the solver gave up on the step before).
#[test]
fn a_pointer_stepped_by_the_row_length_in_a_grid_stride_loop_is_drf() {
    let text = "__global__ void paths(float *out, unsigned int n, unsigned int steps) { \
        __requires(blockDim.y == 1); __requires(blockDim.z == 1); \
        __requires(gridDim.y == 1); __requires(gridDim.z == 1); \
        unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x; \
        unsigned int stride = gridDim.x * blockDim.x; \
        for (size_t i = tid; i < n; i += stride) { float *p = out + i; \
        for (unsigned int t = 0; t < steps; t++, p += n) { *p = 1.0f; } } }";
    assert_eq!(check_text(text).verdict, Verdict::Drf);
}

/// A pointer offset by its row and column, then stepped down the column
/// in a loop (`d += y * pitch + x; d[i * 8 * pitch]`, a separable
/// convolution's column pass): the 64-bit index widens two 32-bit sums,
/// `(i64)(y * pitch + x) + (i64)(i * 8 * pitch)`, which the factored row
/// lemma reads as the row `y + 8 * i` of width `pitch` (the solver timed
/// out before). One step too many meets the next block's first row.
#[test]
fn a_pointer_stepped_down_its_column_is_a_factored_row() {
    let text = "__global__ void cols(float *d, int pitch) { \
        __requires(blockDim.x == 16); __requires(blockDim.y == 8); \
        __requires(blockDim.z == 1); __requires(gridDim.z == 1); \
        __requires(pitch >= 0); __requires(gridDim.x <= 4096); __requires(gridDim.x * 16 <= pitch); \
        int x = blockIdx.x * 16 + threadIdx.x; int y = blockIdx.y * 64 + threadIdx.y; \
        d += y * pitch + x; \
        for (int i = 0; i < 8; i++) { d[i * 8 * pitch] = 1.0f; } }";
    assert_eq!(check_text(text).verdict, Verdict::Drf);
    let r = check_text(&text.replace("i < 8", "i < 9"));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].scope, RaceScope::CrossBlock);
}

/// Forgetting `gridDim.x` in the stride: block 1's first element is block
/// 0's second; a provable race between threads of different blocks.
#[test]
fn block_stride_over_the_whole_grid_is_a_provable_cross_block_race() {
    let r = check_1d(&GRID_STRIDE.replace(" * gridDim.x", ""));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].scope, RaceScope::CrossBlock);
    assert_eq!(races[0].certainty, Certainty::Provable);
    let w = races[0].witness.as_ref().expect("witness");
    let [i1, i2] = [1, 2].map(|t| {
        w.loop_vars
            .iter()
            .find(|l| l.thread == t && l.name == "i")
            .expect("i of each thread")
            .value
    });
    // Each thread's `i` is its global id plus a multiple of 256.
    for (t, i) in w.threads.iter().zip([i1, i2]) {
        let gid = (t.block_idx[0] * 256 + t.thread_idx[0]) as i128;
        assert!(i >= gid && (i - gid) % 256 == 0, "{w:?}");
    }
}

/// Power-of-two offsets in a row of 48 slots per thread: with only the
/// range `1 <= s < 64`, offset 1 of one row would meet offset 49 of the
/// row before; the step `s *= 2` keeps `s` in {1, 2, 4, ..., 32}.
#[test]
fn geometric_offsets_within_a_row_are_drf() {
    let text = "__global__ void g(int *a) { unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
         for (unsigned s = 1; s < 64; s *= 2) a[t * 48 + s] = 1; }";
    assert_eq!(check_1d(text).verdict, Verdict::Drf);
    let r = check_1d(&text.replace("s *= 2", "s += 1"));
    assert_eq!(r.verdict.races().len(), 1, "{:?}", r.verdict);
    assert_eq!(r.verdict.races()[0].certainty, Certainty::Provable);
}

#[test]
fn unit_stride_loop_over_own_slots_is_drf() {
    let r = check_1d(
        "__global__ void g(int *a) { for (int j = 0; j < 4; j++) a[(blockIdx.x * blockDim.x + threadIdx.x) * 4 + j] = j; }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn reduction_example_is_aligned_and_drf() {
    // The barrier in the reduction loop used to give UNKNOWN
    // (ALIGNING_REASON); barrier aligning now handles it (tests/align.rs).
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/reduction.cu"
    ))
    .expect("example");
    let k = kernels(&text)
        .into_iter()
        .find(|k| k.name == "blockSum")
        .expect("blockSum");
    let r = check(&k);
    assert_eq!(r.verdict, Verdict::Drf);
}

#[test]
fn grid_barrier_in_a_loop_is_unknown() {
    let r = check_text(
        "#include <cooperative_groups.h>\n__global__ void k(int *a, int n) { for (int i = 0; i < n; i++) { a[threadIdx.x] = i; cooperative_groups::this_grid().sync(); } }",
    );
    let Verdict::Unknown { reason, span } = &r.verdict else {
        panic!("{:?}", r.verdict)
    };
    assert_eq!(reason, ALIGNING_REASON);
    assert!(span.is_some());
    // Also in a loop of unknown trip count, whose exit would have to be
    // uniform across the grid.
    let r = check_text(
        "#include <cooperative_groups.h>\n__global__ void k(int *a) { __shared__ int done; while (true) { if (threadIdx.x == 0) done = a[blockIdx.x]; __syncthreads(); if (done) break; cooperative_groups::this_grid().sync(); } }",
    );
    let Verdict::Unknown { reason, .. } = &r.verdict else {
        panic!("{:?}", r.verdict)
    };
    assert_eq!(reason, ALIGNING_REASON);
}

#[test]
fn concrete_block_dims_are_honoured() {
    // Racy only when the block has more than 64 threads.
    let mut k = kernel("__global__ void k(int *a) { a[threadIdx.x % 64] = 1; }");
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    assert_eq!(check(&k).verdict, Verdict::Drf);
    k.launch.block = Some([65, 1, 1]);
    let r = check(&k);
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    let w = races[0].witness.as_ref().expect("witness");
    assert_eq!(w.block_dim, None);
    assert_eq!(
        w.threads[0].thread_idx[0] % 64,
        w.threads[1].thread_idx[0] % 64
    );
}

#[test]
fn dims_outside_cuda_limits_are_analysed_as_given_with_a_note() {
    // GPUVerify's corpora use blockDim=2048: the queries must not become
    // vacuous (CUDA's 1024 limit contradicting the given size).
    let mut k = kernel("__global__ void k(int *a) { a[threadIdx.x % 1500] = 1; }");
    k.launch.block = Some([2048, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    let r = check(&k);
    assert!(
        !r.verdict.races().is_empty(),
        "threads 0 and 1500 collide: {:?}",
        r.verdict
    );
    assert!(
        r.notes.iter().any(|n| n.contains("exceeds CUDA's limits")),
        "{:?}",
        r.notes
    );
    k.launch.block = Some([1 << 33, 1, 1]);
    assert!(
        matches!(check(&k).verdict, Verdict::Unknown { .. }),
        "dims beyond 32 bits"
    );
}

/// A given block past the 2^31-thread bound along x, with the grid open:
/// the bound is not assumed (it would contradict the launch and prove the
/// race away). A partly inferred block already past 1024 threads has no
/// model: UNKNOWN, never DRF.
#[test]
fn launch_bounds_never_make_a_launch_vacuous() {
    let mut k = kernel("__global__ void k(int *a, int n) { a[threadIdx.x % n] = 1; }");
    k.launch.block = Some([u64::from(u32::MAX), 1, 1]);
    k.launch.grid = None;
    let r = check(&k);
    assert!(!r.verdict.races().is_empty(), "{:?}", r.verdict);
    k.launch.block = None;
    k.launch.block_parts = [Some(2048), None, None];
    let Verdict::Unknown { reason, .. } = &check(&k).verdict else {
        panic!("a block of 2048 threads along x, at most 1024 in all");
    };
    assert!(reason.contains("contradict"), "{reason}");
}

#[test]
fn preconditions_are_assumed_for_races_and_asserts() {
    let mut k = kernel(
        "__global__ void k(int *a, int n) { __requires(n == 0); if (threadIdx.x < n) a[0] = 1; assert(n == 0); }",
    );
    k.launch.block = Some([32, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    let r = check(&k);
    assert_eq!(r.verdict, Verdict::Drf);
    assert_eq!(r.asserts.len(), 1, "{:?}", r.asserts);
    assert_eq!(r.asserts[0].outcome, warpsafe_static::AssertOutcome::Holds);
}

#[test]
fn symbolic_dims_find_the_2d_race_of_a_1d_index() {
    let text = "__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }";
    // Inferred 1-D (the kernel never reads y or z), at most 2^31 threads
    // along x: each thread its own element.
    assert_eq!(check_text(text).verdict, Verdict::Drf);
    // Any block shape (`--all-dims`): threads that differ in y race, for
    // blocks with more than one row only: *possible*, with a 1-D launch
    // named as clean.
    let mut k = kernel(text);
    k.launch.forget_inferred();
    let r = check(&k);
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    let Certainty::Possible { reasons } = &races[0].certainty else {
        panic!("{:?}", races[0].certainty);
    };
    assert!(
        reasons[0].starts_with("only for some launches or arguments: with blockDim.x=")
            && reasons[0].contains("blockDim.y=1,"),
        "{reasons:?}"
    );
    assert!(races[0]
        .witness
        .as_ref()
        .expect("witness")
        .block_dim
        .is_some());
}

#[test]
fn solver_failure_is_never_drf() {
    let k = kernel("__global__ void k(int *a) { a[0] = threadIdx.x; }");
    let mut config = RaceConfig::default();
    config.solver = config.solver.with_program("/nonexistent/z3");
    let r = check_kernel(&k, &config);
    assert!(
        matches!(r.verdict, Verdict::Unknown { .. }),
        "{:?}",
        r.verdict
    );
}

const GRID_SYNC_UNDER: &str = "#include <cooperative_groups.h>\n__global__ void k(int *a, int n) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    a[gid] = 1;
    if (COND) { cooperative_groups::this_grid().sync(); }
    a[(gid + blockDim.x) % (gridDim.x * blockDim.x)] = 2; }";

/// A grid barrier under a condition uniform across the grid is aligned:
/// the write after it races with the write before it only on the path
/// that skips it (a *possible* race, the path's feasibility unchecked).
#[test]
fn grid_barrier_under_a_grid_uniform_condition_is_aligned() {
    let r = check_1d(&GRID_SYNC_UNDER.replace("COND", "n > 1"));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].scope, RaceScope::CrossBlock);
    assert!(matches!(races[0].certainty, Certainty::Possible { .. }));
    // With the barrier on every path, no race.
    let r = check_1d(&GRID_SYNC_UNDER.replace("COND", "n > 1 || n <= 1"));
    assert_eq!(r.verdict, Verdict::Drf);
}

/// A grid barrier under a condition that is uniform within each block but
/// not across the grid: divergence, with two threads of different blocks.
#[test]
fn grid_barrier_under_a_block_dependent_condition_is_divergent() {
    let r = check_1d(&GRID_SYNC_UNDER.replace("COND", "blockIdx.x < 2"));
    let Verdict::Divergent(ds) = &r.verdict else {
        panic!("{:?}", r.verdict)
    };
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].certainty, Certainty::Provable);
    let [t1, t2] = ds[0].threads.expect("witness");
    assert_ne!(t1.block_idx, t2.block_idx);
    assert_ne!(t1.block_idx[0] < 2, t2.block_idx[0] < 2);
}

#[test]
fn races_on_two_arrays_through_one_helper_are_both_reported() {
    // Both writes are the helper's `*p = v`: one pair of locations, two
    // arrays, two races.
    let mut k = kernel(
        "__device__ void w(int *p, int v) { *p = v; }
        __global__ void k(int *g) { __shared__ int s[64]; w(&g[threadIdx.x], 1); w(&s[0], 2); }",
    );
    k.launch.block = Some([4, 1, 1]);
    k.launch.grid = Some([2, 1, 1]);
    let r = check(&k);
    let Verdict::Racy(races) = &r.verdict else {
        panic!("expected RACY, got {:?}", r.verdict)
    };
    let mut arrays: Vec<&str> = races.iter().map(|r| r.array_name.as_str()).collect();
    arrays.sort_unstable();
    assert_eq!(arrays, ["g", "s"]);
    let g = races.iter().find(|r| r.array_name == "g").expect("g");
    let s = races.iter().find(|r| r.array_name == "s").expect("s");
    assert_eq!(g.scope, RaceScope::CrossBlock);
    assert_eq!(s.scope, RaceScope::SameBlock);
    assert_eq!(g.first.span, s.first.span, "one location pair");
}

/// Signed overflow is undefined behaviour: a race that needs `i * 2^30` to
/// wrap is assumed away by default (the report says so), and found with
/// `signed_wrap`.
#[test]
fn signed_overflow_is_assumed_away_unless_signed_wrap() {
    let k = kernel(
        "__global__ void k(int *a) { int i = threadIdx.x; if (i * 1073741824 < 0) a[0] = i; }",
    );
    let r = check(&k);
    assert_eq!(r.verdict, Verdict::Drf);
    assert!(
        r.notes
            .iter()
            .any(|n| n == warpsafe_static::SIGNED_OVERFLOW_NOTE),
        "{:?}",
        r.notes
    );
    let wrap = RaceConfig::default().with_assumptions(warpsafe_static::Assumptions {
        signed_wrap: true,
        ..Default::default()
    });
    let r = check_kernel(&k, &wrap);
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].certainty, Certainty::Provable);
}

/// A 64-bit unsigned loop counter is assumed not to wrap around 2^64 (its
/// bound would be within one step of 2^64): `i = t + k * blockDim.x` meets
/// no other thread's `i` then (the report says what was assumed); with
/// `counter_wrap`, a wrap shifts `i` by 2^64 mod blockDim.x, and the loop is
/// no longer exact: a race is reported.
#[test]
fn wide_loop_counters_are_assumed_not_to_wrap_unless_counter_wrap() {
    let k = kernel(
        "__global__ void k(int *a, unsigned long long n) { \
           for (unsigned long long i = threadIdx.x; i < n; i += blockDim.x) a[i] = 1; }",
    );
    let one_block = warpsafe_static::Assumptions {
        only_intra_group: true,
        ..Default::default()
    };
    let r = check_kernel(&k, &RaceConfig::default().with_assumptions(one_block));
    assert_eq!(r.verdict, Verdict::Drf);
    assert!(
        r.notes
            .iter()
            .any(|n| n == warpsafe_static::COUNTER_NO_WRAP_NOTE),
        "{:?}",
        r.notes
    );
    let wrap = warpsafe_static::Assumptions {
        counter_wrap: true,
        ..one_block
    };
    let r = check_kernel(&k, &RaceConfig::default().with_assumptions(wrap));
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    // The reason names the wrap, not only "modified in a loop".
    match &races[0].certainty {
        Certainty::Possible { reasons } => assert!(
            reasons
                .iter()
                .any(|w| w.contains("`i` where its loop is not an exact count")
                    && w.contains("may wrap around")),
            "{reasons:?}"
        ),
        other => panic!("expected a possible race, got {other:?}"),
    }
    assert!(
        !r.notes
            .iter()
            .any(|n| n == warpsafe_static::COUNTER_NO_WRAP_NOTE),
        "{:?}",
        r.notes
    );
}

/// The no-wrap assumption of a 64-bit counter never hides what happens
/// before its loop: with `n == 0` the bound `n - 1` is 2^64 - 1 (the
/// counter would wrap), but the race on `out[0]` comes first and is found.
#[test]
fn a_counter_bound_assumes_nothing_away_before_its_loop() {
    let k = kernel(
        "__global__ void k(int *out, int *a, unsigned long long n) { \
           if (n == 0) out[0] = 1; \
           for (unsigned long long i = threadIdx.x; i < n - 1; i += blockDim.x) a[i] = 1; }",
    );
    let one_block = warpsafe_static::Assumptions {
        only_intra_group: true,
        ..Default::default()
    };
    let r = check_kernel(&k, &RaceConfig::default().with_assumptions(one_block));
    let races = r.verdict.races();
    assert!(
        races
            .iter()
            .any(|r| r.array_name == "out" && r.certainty == Certainty::Provable),
        "{:?}",
        r.verdict
    );
}

/// A no-overflow fact holds only where its operation is evaluated: the
/// right operand of `||` (and of `&&`, and a `?:` branch) is not evaluated
/// by every thread, so threads 2 and 3 race without any overflow (on a
/// shared variable: threads of other blocks, which would race on a global
/// one anyway, do not count).
#[test]
fn overflow_facts_hold_only_where_the_operation_is_evaluated() {
    for cond in [
        "i >= 2 || i * 1073741824 > 0",
        "!(i < 2 && i * 1073741824 <= 0)",
        "(i >= 2 ? 1 : i * 1073741824) > 0",
    ] {
        let r = check_1d(&format!(
            "__global__ void k(int *a) {{ __shared__ int s; int i = threadIdx.x; if ({cond}) s = i; }}"
        ));
        let races = r.verdict.races();
        assert_eq!(races.len(), 1, "{cond}: {:?}", r.verdict);
        assert_eq!(races[0].certainty, Certainty::Provable, "{cond}");
    }
}

/// Unsigned arithmetic wraps as C defines: no fact is assumed for it.
#[test]
fn unsigned_arithmetic_wraps() {
    let r = check_1d(
        "__global__ void k(int *a) { unsigned i = threadIdx.x; if (i * 2147483648u == 0u) a[0] = 1; }",
    );
    assert_eq!(r.verdict.races().len(), 1, "{:?}", r.verdict);
    assert!(r
        .notes
        .iter()
        .all(|n| n != warpsafe_static::SIGNED_OVERFLOW_NOTE));
}

/// `only_intra_group` leaves out races between blocks, and says so.
#[test]
fn only_intra_group_leaves_out_races_between_blocks() {
    let k = kernel("__global__ void k(int *a) { if (threadIdx.x == 0) a[0] = 1; }");
    assert_eq!(check(&k).verdict.races().len(), 1);
    let config = RaceConfig::default().with_assumptions(warpsafe_static::Assumptions {
        only_intra_group: true,
        ..Default::default()
    });
    let r = check_kernel(&k, &config);
    assert_eq!(r.verdict, Verdict::Drf);
    assert!(r
        .notes
        .iter()
        .any(|n| n == warpsafe_static::ONLY_INTRA_GROUP_NOTE));
}

/// Integer intrinsics are exact: an index built from `__ffs` is proved
/// one per thread, and a race through `__popc` is *provable* (threads 1
/// and 2 have one bit each).
#[test]
fn integer_intrinsics_are_exact() {
    let r = check_1d(
        "__global__ void k(int *a) { __shared__ int s[256]; \
         s[(threadIdx.x / 32u) * 32u + (unsigned)(__ffs(1u << (threadIdx.x % 32u)) - 1)] = 1; }",
    );
    assert_eq!(r.verdict, Verdict::Drf);
    let r =
        check_1d("__global__ void k(int *a) { __shared__ int s[33]; s[__popc(threadIdx.x)] = 1; }");
    let races = r.verdict.races();
    assert_eq!(races.len(), 1, "{:?}", r.verdict);
    assert_eq!(races[0].certainty, Certainty::Provable);
}

/// `while (i != 0) { ...; i /= 2; }` counts like `i > 0` only from a start
/// that is not negative: a signed start that may be negative (where the
/// loop runs through -2, -1, 0 instead) is never proven race-free.
#[test]
fn halving_to_zero_is_counted_only_from_a_non_negative_start() {
    let body = |start: &str| {
        format!(
            "__global__ void k(int *out, int n) {{\n\
               __shared__ int s[64];\n\
               {start};\n\
               while (i != 0) {{\n\
                 if (i < 0) s[0] = threadIdx.x;\n\
                 __syncthreads();\n\
                 i /= 2;\n\
               }}\n\
             }}\n"
        )
    };
    let mut k = kernel(&body("int i = n"));
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    assert!(
        !matches!(check(&k).verdict, Verdict::Drf),
        "negative starts race"
    );
    let mut k = kernel(&body("unsigned i = blockDim.x"));
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    assert!(
        matches!(check(&k).verdict, Verdict::Drf),
        "an unsigned i is never negative"
    );
}

/// A value built by a long chain of updates becomes an unknown once its
/// expression passes `MAX_TRACKED_NODES` (straight-line code stays
/// linear): an index through it is a *possible* race that says why.
#[test]
fn a_value_too_large_to_track_is_unknown() {
    let updates = "  x = x * 3 + 1;\n".repeat(1200);
    let text = format!(
        "__global__ void k(int *a) {{\n  __shared__ int s[64];\n  unsigned x = threadIdx.x;\n{updates}  s[x % 64] = 1;\n}}\n"
    );
    // The front end lowers deep expressions on a large stack, as the CLI
    // runs it.
    let r = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || check_1d(&text))
        .expect("thread starts")
        .join()
        .expect("the check does not panic");
    let races = r.verdict.races();
    assert!(!races.is_empty(), "{:?}", r.verdict);
    assert!(
        races
            .iter()
            .all(|race| race.certainty != Certainty::Provable),
        "{races:?}"
    );
    assert!(
        format!("{races:?}").contains("grew past 1024 operations"),
        "{races:?}"
    );
}

/// A warp barrier the warp pass cannot align (in a loop some iterations
/// of which pass no barrier) orders nothing in the fallback check, and
/// whether every lane reaches it is not checked: never DRF, which claims
/// no divergence.
#[test]
fn an_unaligned_warp_barrier_is_not_drf() {
    let r = check_text(
        "__global__ void k(const int *a, int *out, int n) { int s = 0;
         for (int i = 0; i < n; i++) { s += a[i]; if (i % 2) __syncwarp(); }
         out[blockIdx.x * blockDim.x + threadIdx.x] = s; }",
    );
    let Verdict::Unknown { reason, span } = &r.verdict else {
        panic!("{:?}", r.verdict)
    };
    assert!(
        reason.starts_with("warp or tile barriers could not be aligned"),
        "{reason}"
    );
    assert!(span.is_some());
}

/// A tile loaded in rows of `rowStride` (sgemm's `for (uint offset = 0;
/// offset + rowStride <= BM; offset += rowStride)`): the test compares the
/// counter plus the stride, read as `offset < BM + 1 - rowStride`, so each
/// thread's rows are exact and the threads' slots differ. A stride of half
/// the rows makes two threads meet.
#[test]
fn a_counter_tested_with_an_offset_is_a_counting_loop() {
    let text = "__global__ void load(const float *in) { \
        __shared__ float As[4 * 128]; \
        const unsigned row = threadIdx.x / 2; const unsigned col = threadIdx.x % 2; \
        for (unsigned offset = 0; offset + 32 <= 128; offset += 32) \
          { As[(col * 4) * 128 + row + offset] = in[threadIdx.x]; } }";
    let mut k = kernel(text);
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    assert_eq!(check(&k).verdict, Verdict::Drf);
    let mut k = kernel(&text.replace("offset += 32", "offset += 16"));
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    let races = check(&k).verdict.races().to_vec();
    assert_eq!(races.len(), 1, "{races:?}");
    assert_eq!(races[0].certainty, Certainty::Provable);
}

/// The same test over a symbolic bound: signed (`i + 4 <= n` is `i <= n -
/// 4`), and unsigned below a bound that cannot make it wrap, where `n < 8`
/// runs no iteration (`o + 8 < n` is then false from the start).
#[test]
fn offset_tests_over_a_parameter_are_exact() {
    let signed = "__global__ void rows(float *out, int n) { \
        __requires(blockDim.x == 4); __requires(blockDim.y == 1); __requires(blockDim.z == 1); \
        __requires(gridDim.x == 1); __requires(gridDim.y == 1); __requires(gridDim.z == 1); \
        for (int i = 0; i + 4 <= n; i += 4) { out[i + threadIdx.x] = 0.0f; } }";
    assert_eq!(check_text(signed).verdict, Verdict::Drf);
    let r = check_text(&signed.replace("i += 4", "i += 2"));
    assert_eq!(r.verdict.races().len(), 1, "{:?}", r.verdict);
    let unsigned = "__global__ void rows(float *out, unsigned n) { \
        __requires(blockDim.x == 8); __requires(blockDim.y == 1); __requires(blockDim.z == 1); \
        __requires(gridDim.x == 1); __requires(gridDim.y == 1); __requires(gridDim.z == 1); \
        __requires(n <= 4096); \
        for (unsigned o = 0; o + 8 < n; o += 8) { out[o + threadIdx.x] = 0.0f; } }";
    assert_eq!(check_text(unsigned).verdict, Verdict::Drf);
    let r = check_text(&unsigned.replace("o += 8", "o += 4"));
    assert_eq!(r.verdict.races().len(), 1, "{:?}", r.verdict);
}
