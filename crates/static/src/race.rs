//! The data-race check: two symbolic threads per pair of access instances,
//! one SMT query each (seeds 001 and 002), after barrier aligning and
//! splitting (seed 002 §4, `align`).
//!
//! - **Phases.** `align` cuts the kernel protocol into phases at block (and
//!   grid) barriers, also inside synchronized `For` loops and inside
//!   conditionals proved uniform within a block (each checked here with the
//!   solver); anything else around a barrier makes the verdict UNKNOWN with
//!   the reason (`align`'s constants). Warp and tile syncs order nothing
//!   here.
//! - **Pairs.** For every array that is neither local nor constant, every
//!   pair of access instances of one phase (an instance with itself
//!   included) with at least one write and not both atomic at block scope
//!   is checked for two threads of one block; for global arrays, every pair
//!   of access sites in one grid phase (`grid`: only grid syncs order
//!   blocks) with at least one write and not both atomic at device scope,
//!   for two threads of different blocks.
//! - **Query.** Both threads' path guards; unsynchronized `For` variables
//!   as fresh constants per thread with `lo <= v < hi` and the values the
//!   step reaches (`stride`, seed 002 §5: `(v - lo) urem k = 0` for `+ k`,
//!   powers for `* c`, ...); in same-block queries, synchronized `For`
//!   variables as one constant per iteration role shared by both threads
//!   (the same domain, the first iteration pinned to its first value, the
//!   previous iteration linked by `cur = step(prev)`, the last one's step
//!   leaving the range); in cross-block queries every loop variable is per
//!   thread, as barriers do not order blocks; indices equal, ids within the
//!   launch (and CUDA's limits, and concrete dims when known), distinct
//!   threads, same or different block, and the kernel's unconditional
//!   preconditions for both threads. `Sat` is a race; only a clean `unsat`
//!   rules the pair out.
//! - **Symbolic strides.** A stride that is not constant in the check
//!   (`blockDim.x * gridDim.x` with unknown dimensions) makes a nonlinear
//!   constraint the solver often cannot decide: it is left out of batches
//!   and well-formedness queries, and a race found without it is refined
//!   with it within resource limits (`check_refinement`; `unsat`: no
//!   race; `sat`: the race with the refined witness; gave up: the race,
//!   *possible*).
//! - **Certainty.** A race is *possible* when something about it is not
//!   known exactly (memory contents, an approximated loop, an assumed
//!   phase, a needed wrap-around); a race that is otherwise *provable* is
//!   asked once more, once the session is over, whether it happens for
//!   every value of the parameters and open dimensions (`universal`).
//!
//! This module holds the entry points (`check_kernel`, `check_protocol`,
//! `check_protocol_dumping_aligned`), the verdict they assemble, and the
//! encoding of each query's sides. Its children, one job each: `passes`
//! (one check per class of thread pairs, merged), `session` (the solver
//! and the constants every query shares, passed by `&mut`), `pairs`
//! (which pairs are asked, in report order), `query` (the main loop, the
//! batched and pairwise race queries, witnesses and certainty),
//! `uniformity` (the questions barrier aligning asks: uniform, feasible,
//! non-empty) and `reasons` (why a race is only possible).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::align::{align, AlignError, Inst, Oracle, Role, Site, Uniformity};
use crate::batch::{self, Outcome};
use crate::encode::{
    has_signed_arithmetic, resize, sort_of, EncodeError, Encoder, Shared, ThreadVars,
};
use crate::groups::PairClass;
use crate::infer::infer;
use crate::protocol::{Access, AccessMode, ForLoop, KernelProtocol, Step};
use crate::stride::{self, Constants};
use crate::sym::{Sym, UnknownReason};
use crate::universal::{Across, Fact, Prelude, Question, Universal};
use crate::verdict::{
    Certainty, Divergence, DivergenceWitness, KernelReport, LoopValue, Race, RaceAccess, RaceScope,
    ThreadId, Verdict, Witness,
};
use warpsafe_ir::{ArrayOrigin, Builtin, Kernel, LoopId, MemSpace, ScalarTy, Scope, Span, VarKind};
use warpsafe_smt::{
    term, CheckResult, SmtError, Solver, SolverConfig, SolverKind, Sort, Term, Transcript,
};
use warpsafe_source::SourceMap;

mod pairs;
mod passes;
mod query;
mod reasons;
mod session;
mod uniformity;

pub(crate) use pairs::atomic_at;
use pairs::*;
use passes::{run_passes, Passes};
pub(crate) use reasons::describe_reason;
use session::ContextLoop;
pub(crate) use session::{Globals, Session};
pub(crate) use uniformity::typed_value;
use uniformity::*;

/// The reason v0 gave for every barrier inside a loop or conditional; now
/// only for grid barriers in loops (see `align` for the other reasons).
pub const ALIGNING_REASON: &str = crate::align::NESTED_GRID_REASON;

/// How to run the check.
#[derive(Clone, Debug)]
pub struct RaceConfig {
    /// The solver; its `timeout` is the per-query limit (default 10 s).
    pub solver: SolverConfig,
    /// Record every query in [`KernelReport::transcript`] (`--dump smt`).
    pub record_smt: bool,
    /// Values of scalar kernel parameters (`--param NAME=VALUE`); the others
    /// stay symbolic.
    pub params: Vec<(String, i128)>,
    /// What the check assumes of C and of the launch.
    pub assumptions: Assumptions,
    /// Stop after this many races (`--max-races`); the report says that
    /// others may exist. `None`: every race.
    pub max_races: Option<usize>,
}

/// What `check` assumes beyond the kernel's own preconditions; each can be
/// dropped from the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Assumptions {
    /// Signed arithmetic wraps (`--signed-wrap`). By default an execution
    /// in which the program's signed `int`/`long` arithmetic overflows is
    /// not considered: C++ leaves it undefined (see `encode`).
    pub signed_wrap: bool,
    /// Launches of 2^31 or more threads along x (`--huge-grids`). By
    /// default, when the launch leaves x symbolic, `gridDim.x * blockDim.x
    /// < 2^31`: the global index `int i = blockIdx.x * blockDim.x +
    /// threadIdx.x` that kernels compute is then never negative and names
    /// each thread once, and the grid stride `gridDim.x * blockDim.x` of a
    /// grid-stride loop over an `int` is a positive `int`. (Beyond that, such an index is negative, so
    /// races found there need an out-of-bounds access first.)
    pub huge_grids: bool,
    /// Races between threads of different blocks are not checked
    /// (`--only-intra-group`, GPUVerify's flag): the kernel is assumed to
    /// run as one block, or its blocks to touch disjoint data. The report
    /// says so.
    pub only_intra_group: bool,
    /// 64-bit unsigned loop counters may wrap around 2^64
    /// (`--counter-wrap`). By default a counting loop `for (size_t i = lo;
    /// i < n; i += k)` is assumed never to have a bound within one step of
    /// 2^64 (an element count that large exceeds any memory), so its
    /// counter never wraps (see `loops`); the report says so.
    pub counter_wrap: bool,
}

/// The note a report carries under `--only-intra-group`.
pub const ONLY_INTRA_GROUP_NOTE: &str = "races between threads of different blocks were not \
checked (--only-intra-group)";

/// The most threads along x assumed by default (see
/// [`Assumptions::huge_grids`]).
pub const MAX_THREADS_ALONG_X: u64 = (1 << 31) - 1;

/// Threads along a dimension below which a 32-bit global index
/// (`blockIdx * blockDim + threadIdx`) cannot wrap.
const GLOBAL_INDEX_RANGE: u64 = 1 << 32;

/// The note a report carries when a 64-bit loop counter was assumed not to
/// wrap (see [`Assumptions::counter_wrap`]).
pub const COUNTER_NO_WRAP_NOTE: &str = "64-bit loop counters are assumed not to wrap \
around 2^64 (their bound is never within one step of 2^64, an element count beyond any \
memory); --counter-wrap also checks executions where they wrap";

/// The note a report carries when the no-overflow assumption was used.
pub const SIGNED_OVERFLOW_NOTE: &str = "signed arithmetic is assumed not to overflow \
(undefined behaviour in C++); --signed-wrap also checks executions where it wraps";

impl Default for RaceConfig {
    fn default() -> RaceConfig {
        RaceConfig {
            solver: SolverConfig::z3().with_logic("QF_BV"),
            record_smt: false,
            params: Vec::new(),
            assumptions: Assumptions::default(),
            max_races: None,
        }
    }
}

impl RaceConfig {
    /// Sets the per-query timeout (`None`: wait for ever).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> RaceConfig {
        self.solver.timeout = timeout;
        self
    }

    /// Sets [`RaceConfig::record_smt`].
    pub fn with_transcript(mut self, record: bool) -> RaceConfig {
        self.record_smt = record;
        self
    }

    pub fn with_params(mut self, params: Vec<(String, i128)>) -> RaceConfig {
        self.params = params;
        self
    }

    /// Sets [`RaceConfig::assumptions`].
    pub fn with_assumptions(mut self, assumptions: Assumptions) -> RaceConfig {
        self.assumptions = assumptions;
        self
    }

    /// Sets [`RaceConfig::max_races`].
    pub fn with_max_races(mut self, max_races: Option<usize>) -> RaceConfig {
        self.max_races = max_races;
        self
    }
}

/// Infers the kernel's protocol and checks it for data races.
pub fn check_kernel(kernel: &Kernel, config: &RaceConfig) -> KernelReport {
    match infer(kernel) {
        Ok(kp) => check_protocol(kernel, &kp, config),
        Err(e) => KernelReport {
            kernel: kernel.name.clone(),
            verdict: unknown(format!("no protocol: {e}"), None),
            asserts: Vec::new(),
            notes: Vec::new(),
            transcript: None,
        },
    }
}

/// Checks an inferred protocol of `kernel` for data races, barrier
/// divergence and assertion failures.
pub fn check_protocol(kernel: &Kernel, kp: &KernelProtocol, config: &RaceConfig) -> KernelReport {
    check(kernel, kp, config, None).0
}

/// [`check_protocol`], also giving the phases its aligning made as text
/// (`--dump aligned`; see `print_aligned`), or why there are none.
pub fn check_protocol_dumping_aligned(
    kernel: &Kernel,
    kp: &KernelProtocol,
    config: &RaceConfig,
    sources: &SourceMap,
) -> (KernelReport, String) {
    let (report, text) = check(kernel, kp, config, Some(sources));
    let text = text.unwrap_or_else(|| {
        format!(
            "kernel {}: not aligned: the check stopped before aligning ({})\n",
            kernel.name,
            match &report.verdict {
                Verdict::Unknown { reason, .. } => reason.as_str(),
                _ => "no aligning was needed",
            }
        )
    });
    (report, text)
}

fn check(
    kernel: &Kernel,
    kp: &KernelProtocol,
    config: &RaceConfig,
    sources: Option<&SourceMap>,
) -> (KernelReport, Option<String>) {
    let mut report = KernelReport {
        kernel: kernel.name.clone(),
        verdict: Verdict::Drf,
        asserts: Vec::new(),
        notes: Vec::new(),
        transcript: None,
    };
    if let Some(v) = unsupported(kernel) {
        report.verdict = v;
        return (report, None);
    }
    if let Some(note) = beyond_cuda_limits(kernel) {
        report.notes.push(note);
    }
    let mut solver_config = config.solver.clone();
    if config.record_smt {
        let t = Transcript::new();
        report.transcript = Some(t.clone());
        solver_config = solver_config.with_transcript(t);
    }
    // The assertions' solver is released before the race check starts its
    // own: one thread never holds two of the capped solver processes.
    let asserts = crate::asserts::check_asserts(
        kernel,
        kp,
        &solver_config,
        &config.params,
        config.assumptions,
    );
    // Vacuity: with contradictory preconditions every query is unsat, and
    // every race and assertion would be "proven".
    match preconditions_contradict(
        kernel,
        kp,
        &solver_config,
        &config.params,
        config.assumptions,
    ) {
        Ok(false) => {}
        Ok(true) => {
            report.verdict = unknown(CONTRADICTORY_ASSUMPTIONS.into(), Some(kernel.span));
            return (report, None);
        }
        Err(e) => {
            report.verdict = unknown(format!("solver failed: {e}"), None);
            return (report, None);
        }
    }
    report.asserts = asserts;
    if !config.assumptions.signed_wrap && program_has_signed_arithmetic(kp) {
        report.notes.push(SIGNED_OVERFLOW_NOTE.into());
    }
    if config.assumptions.only_intra_group {
        report.notes.push(ONLY_INTRA_GROUP_NOTE.into());
    }
    if !config.assumptions.counter_wrap
        && kp
            .preconditions
            .iter()
            .any(|c| c.is_assumed_counter_bound())
    {
        report.notes.push(COUNTER_NO_WRAP_NOTE.into());
    }
    let Passes {
        races,
        inconclusive,
        divergences,
        stopped_early,
        outcome,
        unaligned_groups,
        aligned_text,
    } = run_passes(kernel, kp, config, &solver_config, sources);
    if stopped_early {
        report.notes.push(format!(
            "the check stopped after {} race(s) (--max-races): others may exist",
            races.len()
        ));
    }
    if !divergences.is_empty() {
        report.verdict = Verdict::Divergent(divergences);
        return (report, aligned_text);
    }
    for (a, b, msg) in &inconclusive {
        report.notes.push(format!(
            "inconclusive query ({} / {}): {msg}",
            describe_site(kernel, a),
            describe_site(kernel, b)
        ));
    }
    report.verdict = match outcome {
        Ok(Some((reason, span))) => unknown(reason, Some(span)),
        Err(e) if races.is_empty() => unknown(format!("solver failed: {e}"), None),
        Err(e) => {
            report
                .notes
                .push(format!("solver failed, other races may be missing: {e}"));
            Verdict::Racy(races)
        }
        Ok(None) if !races.is_empty() => {
            if !inconclusive.is_empty() {
                report
                    .notes
                    .push("some queries were inconclusive: other races may be missing".into());
            }
            Verdict::Racy(races)
        }
        Ok(None) => match inconclusive.first() {
            Some((_, _, msg)) => unknown(
                format!(
                    "the solver gave up on {} quer{}: {msg}",
                    inconclusive.len(),
                    if inconclusive.len() == 1 { "y" } else { "ies" }
                ),
                None,
            ),
            None => Verdict::Drf,
        },
    };
    if let Some((reason, span)) = unaligned_groups {
        let what = format!("warp or tile barriers could not be aligned ({reason}): races were checked as if they ordered nothing, but whether every thread of a warp or tile reaches them was not checked");
        match report.verdict {
            Verdict::Drf => report.verdict = unknown(what, Some(span)),
            _ => report.notes.push(what),
        }
    }
    (report, aligned_text)
}

/// Why a race between blocks is only possible in a kernel that never
/// reads `blockIdx` or `gridDim` and whose grid is not known: every block
/// does the same work, so the kernel is written for a grid of one block,
/// and the race needs a launch the program most likely never makes (a
/// kernel launched from another file, or through the driver API).
pub const ONE_BLOCK_KERNEL: &str = "only when the grid has more than one block: the kernel \
never reads blockIdx or gridDim (every block would do the same work), and no launch found in \
the program gives its grid";

/// [`ONE_BLOCK_KERNEL`] when it applies to `kernel`.
fn one_block_kernel(kernel: &Kernel) -> Option<&'static str> {
    let grid_open = (0..3).any(|d| kernel.launch.grid_dim(d).is_none());
    let reads_grid =
        kernel.reads_builtin(&|b| matches!(b, Builtin::BlockIdx(_) | Builtin::GridDim(_)));
    (grid_open && !reads_grid).then_some(ONE_BLOCK_KERNEL)
}

/// Every loop around a site, synchronized or not: between blocks, where
/// barriers order nothing, each is the thread's own.
fn all<'p>(s: &Site<'p>) -> Vec<&'p ForLoop> {
    s.sync_loops.iter().chain(&s.loops).copied().collect()
}

/// Whether an index, a condition, an assertion or a precondition of `kp`
/// has signed arithmetic whose overflow the check assumes away.
fn program_has_signed_arithmetic(kp: &KernelProtocol) -> bool {
    let mut found = false;
    kp.body.walk(&mut |p| {
        found |= match p {
            crate::Proto::Access(a) => has_signed_arithmetic(&a.index),
            crate::Proto::If { cond, .. } => has_signed_arithmetic(cond),
            _ => false,
        }
    });
    found
        || kp
            .asserts
            .iter()
            .chain(&kp.preconditions)
            .any(|c| has_signed_arithmetic(&c.cond) || has_signed_arithmetic(&c.guard))
}

/// Why a race that needs unsigned arithmetic to wrap is only possible.
pub const NEEDS_WRAP: &str = "only when unsigned arithmetic in the index or its \
conditions wraps around (past 2^32 for 32-bit values: an array of more than 4 Gi \
elements)";

/// Why a race is only possible when the solver found no witness in which
/// unsigned arithmetic does not wrap: *provable* needs one.
pub const MAY_NEED_WRAP: &str = "the solver found no witness in which unsigned \
arithmetic in the index or its conditions does not wrap around: the race may need \
an index past 2^32";

/// Why a kernel whose preconditions cannot all hold is UNKNOWN.
pub const CONTRADICTORY_ASSUMPTIONS: &str = "the kernel's preconditions (`__requires`, \
`__axiom`, --param values, the launch dimensions and what the host code's launches \
establish) contradict each other: no thread \
satisfies them, so every property would hold vacuously";

/// Whether the launch constraints, parameter values and unconditional
/// `__requires`/`__axiom`s have no model. `__assume`s are left out: they
/// stop the threads that reach them false (a null dereference is lowered
/// as `assert false; assume false`), which is no precondition. Asked, in
/// its own solver session released before the race check starts, only
/// when the kernel has such preconditions or parameter values. A solver
/// that gives up counts as no contradiction: the queries that follow give
/// up too, so nothing is proven vacuously.
fn preconditions_contradict(
    kernel: &Kernel,
    kp: &KernelProtocol,
    solver: &SolverConfig,
    params: &[(String, i128)],
    assumptions: Assumptions,
) -> Result<bool, Fatal> {
    let mut pre = kp.clone();
    pre.preconditions.retain(|c| match c.origin {
        crate::ConditionOrigin::Assume(
            warpsafe_ir::AssumeOrigin::Assume | warpsafe_ir::AssumeOrigin::Aligned,
        ) => false,
        crate::ConditionOrigin::CounterNoWrap => !assumptions.counter_wrap,
        _ => true,
    });
    if pre.preconditions.is_empty() && params.is_empty() && !partial_block_too_large(&kernel.launch)
    {
        return Ok(false);
    }
    let mut check = Check::new(
        kernel,
        &pre,
        solver.clone(),
        params,
        assumptions,
        Vec::new(),
    );
    let session = check.session()?;
    Ok(matches!(session.solver.check()?, CheckResult::Unsat))
}

/// Whether the block dimensions a launch fixes, without fixing the whole
/// block, already hold more threads than a block may (or than
/// `__launch_bounds__` allows; `--block-dim` fixes
/// all three and is taken as given; an inferred part is bounded like the
/// rest, which then has no model).
fn partial_block_too_large(launch: &warpsafe_ir::LaunchConfig) -> bool {
    let fixed: u64 = (0..3)
        .filter_map(|d| launch.block_dim(d))
        .fold(1, u64::saturating_mul);
    launch.block.is_none() && fixed > max_threads_per_block(launch)
}

/// The most threads a block of `launch` may have: CUDA's limit, or less
/// under `__launch_bounds__`.
fn max_threads_per_block(launch: &warpsafe_ir::LaunchConfig) -> u64 {
    launch
        .max_block_threads
        .map_or(MAX_THREADS_PER_BLOCK, |n| n.min(MAX_THREADS_PER_BLOCK))
}

fn unknown(reason: String, span: Option<Span>) -> Verdict {
    Verdict::Unknown { reason, span }
}

fn describe_site(kernel: &Kernel, a: &Access) -> String {
    let mode = match a.mode {
        AccessMode::Read => "read",
        AccessMode::Write => "write",
    };
    format!("{mode} of `{}`", kernel.array(a.array).name)
}

/// A note when the given launch exceeds what CUDA allows.
fn beyond_cuda_limits(kernel: &Kernel) -> Option<String> {
    let launch = &kernel.launch;
    let block_ok = launch.block.is_none_or(|b| {
        (0..3).all(|d| b[d] <= BLOCK_LIMITS[d])
            && b.iter().product::<u64>() <= MAX_THREADS_PER_BLOCK
    });
    let grid_ok = launch
        .grid
        .is_none_or(|g| (0..3).all(|d| g[d] <= GRID_LIMITS[d]));
    (!block_ok || !grid_ok).then(|| {
        "the launch exceeds CUDA's limits (it would fail on a GPU); it is analysed as given"
            .to_string()
    })
}

/// Kernels v0 cannot model at all.
fn unsupported(kernel: &Kernel) -> Option<Verdict> {
    let dynamic = kernel
        .arrays
        .iter()
        .filter(|a| a.origin == ArrayOrigin::DynamicShared)
        .count();
    if dynamic > 1 {
        return Some(unknown(
            "several `extern __shared__` arrays share one buffer; aliasing is not modelled".into(),
            None,
        ));
    }
    let launch = &kernel.launch;
    // Dimensions are 32-bit in the encoding (as in CUDA).
    let too_big = |d: &[u64; 3]| d.iter().any(|x| *x == 0 || *x > u64::from(u32::MAX));
    if launch.block.as_ref().is_some_and(too_big) || launch.grid.as_ref().is_some_and(too_big) {
        return Some(unknown(
            "a launch dimension is zero or does not fit in 32 bits".into(),
            launch.span,
        ));
    }
    None
}

/// Defines each thread's global index per dimension (`blockIdx *
/// blockDim + threadIdx`, see [`ThreadVars::global_idx`]) and, where the grid has
/// at most 2^32 threads along the dimension, asserts two lemmas: the index
/// is below the number of threads along the dimension (a constant bound,
/// and `gridDim * blockDim`, the stride of grid-stride loops, in 64 bits
/// and, below 2^32 threads, in 32), and it names one
/// thread (the sum cannot wrap, and `threadIdx < blockDim`). They spare
/// the solver proofs about 32-bit multipliers that it does not find in
/// minutes (`i = blockIdx.x * blockDim.x + threadIdx.x; a[i] = ...`
/// between blocks). They are asserted only where the bound is known to
/// hold: for dimensions within CUDA's limits (y, z), bounded by
/// [`Assumptions::huge_grids`]' default (x), or concrete and small
/// enough; otherwise (x with `--huge-grids`) the second has the bound as
/// a premise, so it is valid in every model and changes no answer.
fn global_index_lemmas(
    solver: &mut Solver,
    prelude: &mut Prelude,
    launch: &warpsafe_ir::LaunchConfig,
    assumptions: Assumptions,
    block_dim: &[Term; 3],
    grid_dim: &[Term; 3],
    threads: &[ThreadVars; 2],
) -> Result<(), SmtError> {
    let wide = |t: &Term| term::zero_extend(32, t.clone());
    for d in 0..3 {
        for t in threads {
            let sum = term::bvadd(
                term::bvmul(t.block_idx[d].clone(), block_dim[d].clone()),
                t.thread_idx[d].clone(),
            );
            prelude.assert(
                solver,
                term::eq(t.global_idx[d].clone(), sum),
                Fact::GlobalIndex(d),
            )?;
        }
        // The largest each dimension can be (a concrete one is taken as
        // given, even beyond CUDA's limits).
        let block = launch.block_dim(d).unwrap_or(BLOCK_LIMITS[d]);
        let grid = launch.grid_dim(d).unwrap_or(GRID_LIMITS[d]);
        let mut threads_along = block.saturating_mul(grid);
        if d == 0 && bounds_threads_along_x(launch, assumptions.huge_grids) {
            threads_along = threads_along.min(MAX_THREADS_ALONG_X);
        }
        let bounded = threads_along <= GLOBAL_INDEX_RANGE;
        let threads_in_grid = term::bvmul(wide(&grid_dim[d]), wide(&block_dim[d]));
        if bounded {
            // Each global index is below the threads along the dimension,
            // a constant and `gridDim * blockDim` (the grid stride).
            for t in threads {
                let [below_bound, below_grid] = [
                    term::bvult(
                        wide(&t.global_idx[d]),
                        term::bv(u128::from(threads_along), 64),
                    ),
                    term::bvult(wide(&t.global_idx[d]), threads_in_grid.clone()),
                ];
                prelude.assert(solver, below_bound, Fact::GlobalIndex(d))?;
                prelude.assert(solver, below_grid, Fact::GlobalIndex(d))?;
            }
            // Below 2^32 threads the 32-bit product is exact: the bound
            // also in the width the program's grid strides are computed
            // in (a solver does not relate the two multipliers).
            if threads_along < GLOBAL_INDEX_RANGE {
                let narrow = term::bvmul(grid_dim[d].clone(), block_dim[d].clone());
                for t in threads {
                    let below = term::bvult(t.global_idx[d].clone(), narrow.clone());
                    prelude.assert(solver, below, Fact::GlobalIndex(d))?;
                }
            }
        }
        let premise = if bounded {
            term::bool(true)
        } else {
            term::bvule(
                term::bvmul(wide(&grid_dim[d]), wide(&block_dim[d])),
                term::bv(u128::from(GLOBAL_INDEX_RANGE), 64),
            )
        };
        let [t1, t2] = threads;
        let injective = term::implies(
            term::and([
                premise,
                term::eq(t1.global_idx[d].clone(), t2.global_idx[d].clone()),
            ]),
            term::and([
                term::eq(t1.block_idx[d].clone(), t2.block_idx[d].clone()),
                term::eq(t1.thread_idx[d].clone(), t2.thread_idx[d].clone()),
            ]),
        );
        prelude.assert(solver, injective, Fact::GlobalIndex(d))?;
    }
    Ok(())
}

/// Whether the bound `gridDim.x * blockDim.x < 2^31` is assumed: unless
/// `--huge-grids` drops it, when the launch leaves `gridDim.x` or
/// `blockDim.x` open. Concrete dimensions are taken as given, so it is not
/// assumed when both are fixed, nor when a fixed one alone exceeds it
/// (the bound would then contradict the launch and prove every property
/// vacuously).
pub fn bounds_threads_along_x(launch: &warpsafe_ir::LaunchConfig, huge_grids: bool) -> bool {
    let (grid, block) = (launch.grid_dim(0), launch.block_dim(0));
    !huge_grids
        && (grid.is_none() || block.is_none())
        && [grid, block]
            .into_iter()
            .flatten()
            .all(|n| n <= MAX_THREADS_ALONG_X)
}

/// CUDA's limits on launch dimensions (every compute capability >= 3.0).
const BLOCK_LIMITS: [u64; 3] = [1024, 1024, 64];
const MAX_THREADS_PER_BLOCK: u64 = 1024;
const GRID_LIMITS: [u64; 3] = [(1 << 31) - 1, 65535, 65535];

/// A failure that ends the check: the solver is unusable or the encoding
/// failed.
#[derive(Debug)]
pub(crate) enum Fatal {
    Smt(SmtError),
    Encode(EncodeError),
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Smt(e) => write!(f, "{e}"),
            Fatal::Encode(e) => write!(f, "cannot encode: {}", e.0),
        }
    }
}

impl From<SmtError> for Fatal {
    fn from(e: SmtError) -> Fatal {
        Fatal::Smt(e)
    }
}

impl From<EncodeError> for Fatal {
    fn from(e: EncodeError) -> Fatal {
        Fatal::Encode(e)
    }
}

pub(crate) struct Check<'k> {
    pub(crate) kernel: &'k Kernel,
    kp: &'k KernelProtocol,
    config: SolverConfig,
    /// Started on the first query.
    pub(crate) session: Option<Session>,
    races: Vec<Race>,
    inconclusive: Vec<(Access, Access, String)>,
    /// Approximations that affect every race (dropped preconditions).
    pub(crate) global_reasons: Vec<String>,
    pub(crate) queries: usize,
    /// The text of batched queries found clear, with their query number
    /// written `q#` (straight-line code repeats the same phase thousands
    /// of times; see `batch`).
    pub(crate) clear_batches: HashSet<String>,
    /// Concrete values of scalar parameters, by name.
    param_values: &'k [(String, i128)],
    /// Divergent barriers found while aligning (races are not checked).
    divergences: Vec<Divergence>,
    /// Assume even the `__assume`s that follow memory accesses (true for
    /// one assertion's check, whose preconditions are those before it in
    /// program order; false for races, which may happen before them).
    pub(crate) late_assumes: bool,
    pub(crate) assumptions: Assumptions,
    /// Stop looking once this many races are found ([`RaceConfig::max_races`]).
    max_races: Option<usize>,
    /// The search stopped at `max_races`.
    stopped_early: bool,
    /// The pair class this check is restricted to (warp and tile
    /// barriers, see `groups`): asserted for two threads of one block.
    class: Option<PairClass>,
    /// Where spans are, when the aligned phases are to be printed
    /// (`--dump aligned`).
    dump_aligned: Option<&'k SourceMap>,
    /// The aligned phases as text, when `dump_aligned` is set.
    aligned_text: Option<String>,
    /// The kernel's ticket counters (see [`crate::tickets`]).
    tickets: crate::tickets::Tickets,
}

/// Both sides' indices, widened to one width (a bit more than the wider,
/// so that signed and unsigned compare as numbers), and that they are
/// equal: the two accesses touch one slot.
fn same_slot(s1: &Side, s2: &Side) -> (Term, Term) {
    let width = s1.index_ty.bits().max(s2.index_ty.bits()) + 1;
    let i1 = resize(s1.index.clone(), s1.index_ty, width);
    let i2 = resize(s2.index.clone(), s2.index_ty, width);
    (i1.clone(), term::eq(i1, i2))
}

/// One side of a query, encoded.
pub(crate) struct Side {
    pub(crate) constraints: Vec<Term>,
    /// The constraints of symbolic strides (see [`domain`]), for refining.
    pub(crate) strides: Vec<Term>,
    /// The loops with a symbolic additive step, for the grid-stride lemma
    /// stated with the refinement ([`stride::congruence`]).
    pub(crate) progressions: Vec<stride::Progression>,
    pub(crate) index: Term,
    pub(crate) index_ty: ScalarTy,
    /// Per-thread loop variables: name, type, constant.
    loops: Vec<(String, ScalarTy, Term)>,
    reasons: Vec<UnknownReason>,
    /// That the unsigned arithmetic of the guards and index does not wrap
    /// (see [`Encoder::wrap_facts`]).
    pub(crate) wrap_facts: Vec<Term>,
    /// The index read as `row * width + column` (see [`crate::rows`]).
    pub(crate) rows: Vec<crate::rows::Row>,
    /// The atomic results the side reads (see [`crate::tickets`]).
    pub(crate) atomic_results: Vec<(warpsafe_ir::ArrayId, ScalarTy, Term)>,
}

/// A synchronized loop's variable in one iteration role, shared by both
/// threads of a same-block query: the loops and roles from the outermost
/// enclosing synchronized loop down to this one.
pub(crate) type BinderKey = Vec<(LoopId, Role)>;

/// The shared constants of one same-block query.
pub(crate) struct Binders<'p> {
    /// In order: a key's prefixes come before it.
    pub(crate) entries: Vec<(BinderKey, &'p ForLoop, Term)>,
    /// Per entry: its range, pinned value and link to the current
    /// iteration, with the instances of the query that need the entry.
    pub(crate) constraints: Vec<(Vec<Term>, Vec<usize>)>,
    /// Constants to declare.
    pub(crate) decls: Vec<(String, Sort)>,
    /// The constraints of symbolic strides (see [`domain`]), for refining.
    pub(crate) strides: Vec<Term>,
}

impl Binders<'_> {
    fn get(&self, key: &[(LoopId, Role)]) -> Option<&Term> {
        self.entries
            .iter()
            .find(|(k, _, _)| k.as_slice() == key)
            .map(|e| &e.2)
    }

    /// The loop variables an instance sees: each enclosing synchronized
    /// loop bound to its role's constant.
    pub(crate) fn loop_vars(&self, key: &[(LoopId, Role)]) -> HashMap<LoopId, Term> {
        (1..=key.len())
            .filter_map(|n| Some((key[n - 1].0, self.get(&key[..n])?.clone())))
            .collect()
    }
}

/// The key of every enclosing synchronized loop of an instance.
pub(crate) fn inst_key(site: &Site<'_>, inst: &Inst) -> BinderKey {
    site.sync_loops
        .iter()
        .zip(&inst.path)
        .map(|(l, r)| (l.loop_id, *r))
        .collect()
}

/// Which of a site's enclosing synchronized loops (by position) its
/// guards, index and unsynchronized loops' bounds mention, closed under
/// the bounds and steps of the loops mentioned.
fn referenced_sync_loops(site: &Site<'_>) -> Vec<bool> {
    let n = site.sync_loops.len();
    let mut needed = vec![false; n];
    let mut work: Vec<usize> = Vec::new();
    let mention = |s: &Sym, needed: &mut Vec<bool>, work: &mut Vec<usize>| {
        s.walk(&mut |e| {
            if let Sym::LoopVar { loop_id, .. } = e {
                if let Some(p) = site.sync_loops.iter().position(|l| l.loop_id == *loop_id) {
                    if !needed[p] {
                        needed[p] = true;
                        work.push(p);
                    }
                }
            }
        })
    };
    for g in &site.guards {
        mention(g, &mut needed, &mut work);
    }
    mention(&site.access.index, &mut needed, &mut work);
    for l in &site.loops {
        for s in [&l.lo, &l.hi, l.step.amount()] {
            mention(s, &mut needed, &mut work);
        }
    }
    while let Some(p) = work.pop() {
        let l = site.sync_loops[p];
        for s in [&l.lo, &l.hi, l.step.amount()] {
            mention(s, &mut needed, &mut work);
        }
    }
    needed
}

/// `lo <= v < hi` in the loop's type.
pub(crate) fn in_range(l: &ForLoop, lo: Term, v: Term, hi: Term) -> [Term; 2] {
    in_range_of(l.ty, lo, v, hi)
}

/// The values loop `l`'s constant `v` may take, encoded with `e`: `lo <= v
/// < hi` with the step's constraint when it is ground (`stride`), and
/// separately the constraint of a symbolic stride, which only refines a
/// race found without it (`None` when there is none).
pub(crate) fn domain(
    e: &mut Encoder<'_>,
    constants: &Constants,
    l: &ForLoop,
    lo: Term,
    v: Term,
    hi: Term,
) -> Result<(Vec<Term>, Option<Term>), EncodeError> {
    let mut out: Vec<Term> = in_range(l, lo, v.clone(), hi).into();
    let step = stride::reachable(e, l.into(), &v)?;
    if constants.ground(&l.step) {
        out.extend(step);
        Ok((out, None))
    } else {
        Ok((out, step))
    }
}

/// How long a refinement of a race (with its symbolic strides, or without
/// wrap-arounds) may take with cvc5, which has no resource limit (at most
/// the per-query timeout): such constraints are nonlinear, and the solver
/// gives up on most of those it cannot decide quickly.
const REFINE_TIMEOUT: Duration = Duration::from_secs(1);

/// A refinement's `check-sat`, which may give up (the race stays,
/// *possible*).
///
/// With z3, every try is within z3's resource limit, under the per-query
/// timeout ([`Solver::check_bounded`]), so whether it gives up does not
/// depend on the machine's load: a 1 s time limit turned the stride
/// refinement of a 64-bit grid-stride counter into "the solver gave up"
/// on a loaded machine. With `bit_blast` the bit-blasted try is made too:
/// z3's incremental solver and its SMT core both take seconds to minutes
/// on the grid-stride lemma's query (after a `push`, with the launch's
/// products of `blockDim` and `gridDim`: over five minutes with no limit,
/// and a plain grid-stride loop was a possible race under CI), while
/// z3's `qfbv` tactic refutes it within a fifth of its resource limit.
///
/// With cvc5, one check within [`REFINE_TIMEOUT`], the per-query timeout
/// restored afterwards.
fn check_refinement(
    solver: &mut Solver,
    normal: Option<Duration>,
    bit_blast: bool,
) -> Result<CheckResult, SmtError> {
    if solver.kind() == SolverKind::Z3 {
        return solver.check_bounded(bit_blast);
    }
    let lowered = normal.is_none_or(|n| REFINE_TIMEOUT < n);
    if lowered {
        solver.command(&timeout_option(solver.kind(), Some(REFINE_TIMEOUT)))?;
    }
    let r = solver.check();
    if lowered {
        solver.command(&timeout_option(solver.kind(), normal))?;
    }
    r
}

/// The `set-option` of a per-`check-sat` timeout (`None`: none).
pub(crate) fn timeout_option(kind: SolverKind, t: Option<Duration>) -> Term {
    let option = match kind {
        SolverKind::Z3 => ":timeout",
        SolverKind::Cvc5 => ":tlimit-per",
    };
    // No limit: z3's default (the largest value), cvc5's 0.
    let none = match kind {
        SolverKind::Z3 => u128::from(u32::MAX),
        SolverKind::Cvc5 => 0,
    };
    let ms = t.map_or(none, |t| t.as_millis().max(1));
    term::app(
        "set-option",
        [Term::atom(option), Term::atom(ms.to_string())],
    )
}

/// `lo <= v < hi` in type `ty`.
pub(crate) fn in_range_of(ty: ScalarTy, lo: Term, v: Term, hi: Term) -> [Term; 2] {
    if ty.is_signed() {
        [term::bvsle(lo, v.clone()), term::bvslt(v, hi)]
    } else {
        [term::bvule(lo, v.clone()), term::bvult(v, hi)]
    }
}

/// `var op amount` in the loop's type: the next value of the variable.
fn step_sym(l: &ForLoop) -> Sym {
    let op = l.step.op();
    Sym::binary(
        op,
        l.ty,
        l.var_sym(),
        Sym::cast(l.ty, l.step.amount().clone()),
    )
}

/// The last value, when the step is a unit one (`None` otherwise: the
/// last value of a geometric or strided loop is not pinned).
fn last_value(l: &ForLoop) -> Option<Sym> {
    if !l.step.is_unit() {
        return None;
    }
    Some(match l.step {
        Step::Add(_) => l.hi_minus_one(),
        _ => l.lo.clone(),
    })
}

fn role_name(name: &str, role: Role) -> String {
    match role {
        Role::Cur => name.to_owned(),
        Role::First => format!("{name} (first iteration)"),
        Role::Prev => format!("{name} (previous iteration)"),
        Role::Last => format!("{name} (last iteration)"),
    }
}

fn witness(
    kernel: &Kernel,
    solver: &mut Solver,
    globals: &Globals,
    shared_vars: &[(String, ScalarTy, Term)],
    s1: &Side,
    s2: &Side,
    index: Term,
) -> Result<Witness, SmtError> {
    let mut terms: Vec<Term> = Vec::new();
    for t in &globals.threads {
        terms.extend(t.block_idx.iter().cloned());
        terms.extend(t.thread_idx.iter().cloned());
    }
    terms.extend(globals.shared.block_dim.iter().cloned());
    terms.extend(globals.shared.grid_dim.iter().cloned());
    terms.extend(globals.params.iter().map(|p| p.2.clone()));
    terms.extend(shared_vars.iter().map(|l| l.2.clone()));
    terms.extend(s1.loops.iter().chain(&s2.loops).map(|l| l.2.clone()));
    terms.push(index);
    let values = solver.get_values(&terms)?;
    let unsigned = |i: usize| match values[i] {
        warpsafe_smt::Value::BitVec { value, .. } => value as u64,
        _ => 0,
    };
    let typed = |i: usize, ty: ScalarTy| typed_value(&values[i], ty);
    let triple = |at: usize| [unsigned(at), unsigned(at + 1), unsigned(at + 2)];
    let threads = [
        ThreadId {
            block_idx: triple(0),
            thread_idx: triple(3),
        },
        ThreadId {
            block_idx: triple(6),
            thread_idx: triple(9),
        },
    ];
    let launch = &kernel.launch;
    let mut at = 18;
    let params = globals
        .params
        .iter()
        .enumerate()
        .map(|(k, (name, ty, _))| (name.clone(), typed(at + k, *ty)))
        .collect();
    at += globals.params.len();
    let mut loop_vars = Vec::new();
    for (name, ty, _) in shared_vars {
        loop_vars.push(LoopValue {
            thread: 0,
            name: name.clone(),
            value: typed(at, *ty),
        });
        at += 1;
    }
    for (thread, side) in [(1u8, s1), (2u8, s2)] {
        for (name, ty, _) in &side.loops {
            loop_vars.push(LoopValue {
                thread,
                name: name.clone(),
                value: typed(at, *ty),
            });
            at += 1;
        }
    }
    Ok(Witness {
        threads,
        block_dim: launch.block.is_none().then(|| triple(12)),
        grid_dim: launch.grid.is_none().then(|| triple(15)),
        params,
        loop_vars,
        index: values[at].as_signed().unwrap_or(0),
    })
}

fn race_access(a: &Access) -> RaceAccess {
    RaceAccess {
        span: a.span,
        mode: a.mode,
        atomic: a.atomic,
    }
}

/// The quantified "for every launch?" solver over what a session declared.
fn universal<'g>(
    config: &SolverConfig,
    globals: &'g Globals,
    launch: &warpsafe_ir::LaunchConfig,
) -> Universal<'g> {
    Universal::new(
        config,
        &globals.prelude,
        &globals.params,
        launch,
        [&globals.shared.block_dim, &globals.shared.grid_dim],
    )
}
