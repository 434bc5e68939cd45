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
//!   with it within [`REFINE_TIMEOUT`] (`unsat`: no race; `sat`: the race
//!   with the refined witness; gave up: the race, *possible*).
//! - **Certainty.** A race is *possible* when something about it is not
//!   known exactly (memory contents, an approximated loop, an assumed
//!   phase, a needed wrap-around); a race that is otherwise *provable* is
//!   asked once more, once the session is over, whether it happens for
//!   every value of the parameters and open dimensions (`universal`).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::align::{align, AlignError, Inst, Oracle, Role, Site, Uniformity};
use crate::batch::{self, Outcome};
use crate::encode::{
    has_signed_arithmetic, resize, sort_of, EncodeError, Encoder, Shared, ThreadVars,
};
use crate::groups::{self, PairClass};
use crate::infer::infer;
use crate::protocol::{Access, AccessMode, ForLoop, KernelProtocol, Step};
use crate::stride::{self, Constants};
use crate::sym::{Sym, UnknownReason};
use crate::universal::{Across, Fact, Prelude, Question, Universal};
use crate::verdict::{
    Certainty, Divergence, DivergenceWitness, KernelReport, LoopValue, Race, RaceAccess, RaceScope,
    ThreadId, Verdict, Witness,
};
use warpsafe_ir::{
    ArrayOrigin, BinOp, Builtin, Kernel, LoopId, MemSpace, ScalarTy, Scope, Span, VarKind,
};
use warpsafe_smt::{
    term, CheckResult, SmtError, Solver, SolverConfig, SolverKind, Sort, Term, Transcript,
};

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
    let mut report = KernelReport {
        kernel: kernel.name.clone(),
        verdict: Verdict::Drf,
        asserts: Vec::new(),
        notes: Vec::new(),
        transcript: None,
    };
    if let Some(v) = unsupported(kernel) {
        report.verdict = v;
        return report;
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
            return report;
        }
        Err(e) => {
            report.verdict = unknown(format!("solver failed: {e}"), None);
            return report;
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
    } = run_passes(kernel, kp, config, &solver_config);
    if stopped_early {
        report.notes.push(format!(
            "the check stopped after {} race(s) (--max-races): others may exist",
            races.len()
        ));
    }
    if !divergences.is_empty() {
        report.verdict = Verdict::Divergent(divergences);
        return report;
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
    report
}

/// What the race check's passes found together.
struct Passes {
    /// Why the passes inside warps or tiles could not align their
    /// barriers (the check then ran once with those barriers ordering
    /// nothing, so their divergence was not checked).
    unaligned_groups: Option<(String, Span)>,
    races: Vec<Race>,
    inconclusive: Vec<(Access, Access, String)>,
    divergences: Vec<Divergence>,
    stopped_early: bool,
    outcome: Result<Option<(String, Span)>, Fatal>,
}

/// The race check: one pass, or, in a kernel with warp or tile barriers
/// that can be modelled, one pass per pair class (`groups`). When a class
/// inside a group cannot be aligned (a warp barrier in a loop of unknown
/// length, say), the single pass in which those barriers order nothing
/// is the answer.
fn run_passes(
    kernel: &Kernel,
    kp: &KernelProtocol,
    config: &RaceConfig,
    solver_config: &SolverConfig,
) -> Passes {
    let one = |kp: &KernelProtocol, class: Option<PairClass>, reasons: Vec<String>| {
        let mut check = Check::new(
            kernel,
            kp,
            solver_config.clone(),
            &config.params,
            config.assumptions,
            reasons,
        );
        check.max_races = config.max_races;
        check.class = class;
        let outcome = check.run();
        Passes {
            races: check.races,
            inconclusive: check.inconclusive,
            divergences: check.divergences,
            stopped_early: check.stopped_early,
            outcome,
            unaligned_groups: None,
        }
    };
    let found = groups::groups(&kp.body).filter(|g| !g.sizes.is_empty());
    let Some(found) = found else {
        return one(kp, None, unmodelled_synchronisation(kernel, false));
    };
    let reasons = unmodelled_synchronisation(kernel, true);
    let mut all: Option<Passes> = None;
    for class in groups::classes(&found) {
        let inside = class.inside();
        let group = match class.same {
            Some(32) => "threads of a warp".to_string(),
            Some(n) => format!("threads of a tile of {n}"),
            None => String::new(),
        };
        let pass = match class.same {
            None => one(kp, Some(class), reasons.clone()),
            Some(_) => {
                let body = groups::as_block_barriers(&kp.body, &class);
                let grouped = KernelProtocol { body, ..kp.clone() };
                one(&grouped, Some(class), reasons.clone())
            }
        };
        if let (Ok(Some(why)), true) = (&pass.outcome, inside) {
            // Not aligned with the group's barriers: they order nothing,
            // and whether every thread of a group reaches them is unknown.
            let mut fallback = one(kp, None, unmodelled_synchronisation(kernel, false));
            fallback.unaligned_groups = Some(why.clone());
            return fallback;
        }
        all = Some(match all {
            None => pass,
            Some(mut acc) => {
                for race in pass.races {
                    // One race per pair of accesses: the most certain.
                    match acc.races.iter_mut().find(|r| same_race(r, &race)) {
                        Some(r)
                            if r.certainty != Certainty::Provable
                                && race.certainty == Certainty::Provable =>
                        {
                            *r = race
                        }
                        Some(_) => {}
                        None => acc.races.push(race),
                    }
                }
                acc.inconclusive.extend(pass.inconclusive);
                for mut d in pass.divergences {
                    if acc.divergences.iter().any(|e| e.span == d.span) {
                        continue;
                    }
                    // Found between two threads of one group.
                    d.reason = d.reason.replace("threads of a block", &group);
                    acc.divergences.push(d);
                }
                acc.stopped_early |= pass.stopped_early;
                acc.outcome = match (acc.outcome, pass.outcome) {
                    (Ok(None), o) => o,
                    (o, _) => o,
                };
                acc
            }
        });
    }
    let mut all = all.expect("invariant: at least the class outside every group");
    if let Some(m) = config.max_races {
        all.stopped_early |= all.races.len() > m;
        all.races.truncate(m);
    }
    all
}

/// Why a race between blocks is only possible in a kernel that never
/// reads `blockIdx` or `gridDim` and whose grid is not known: every block
/// does the same work, so the kernel is written for a grid of one block,
/// and the race needs a launch the program most likely never makes (a
/// kernel launched from another file, or through the driver API).
pub const ONE_BLOCK_KERNEL: &str = "only when the grid has more than one block: the kernel \
never reads blockIdx or gridDim (every block would do the same work), and no launch in the \
file gives its grid";

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

/// Whether two races are between the same two accesses.
fn same_race(a: &Race, b: &Race) -> bool {
    let key = |r: &Race| {
        let (x, y) = (r.first.span, r.second.span);
        (r.array, x.min(y), x.max(y))
    };
    key(a) == key(b)
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
/// and `gridDim * blockDim`, the stride of grid-stride loops), and it names one
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

/// Whether an atomic access is atomic with respect to every thread of
/// `scope` (a block, or the whole device).
pub(crate) fn atomic_at(a: &Access, cross_block: bool) -> bool {
    a.atomic
        && match a.scope {
            Some(Scope::Device | Scope::System) => true,
            Some(Scope::Block | Scope::Cluster) => !cross_block,
            Some(Scope::Thread) | None => false,
        }
}

/// A pair of accesses to check.
#[derive(Clone, Debug)]
enum Pair {
    /// Two threads of one block, both in one phase. `assumed`: every phase
    /// holding the pair is only formed on a path whose feasibility the
    /// query does not check (`align::Phase::assumed`).
    SameBlock { a: Inst, b: Inst, assumed: bool },
    /// Two threads of different blocks, both sites in one grid phase;
    /// `assumed` as for `SameBlock` (`grid::GridPhase::assumed`).
    CrossBlock { a: usize, b: usize, assumed: bool },
}

impl Pair {
    fn sites(&self) -> (usize, usize) {
        match self {
            Pair::SameBlock { a, b, .. } => (a.site, b.site),
            Pair::CrossBlock { a, b, .. } => (*a, *b),
        }
    }
}

/// Whether two accesses of a pair may race at all: same array, not both
/// reads, an array threads share.
fn may_conflict(kernel: &Kernel, a: &Access, b: &Access) -> bool {
    a.array == b.array
        && !(a.mode == AccessMode::Read && b.mode == AccessMode::Read)
        && !matches!(
            kernel.array(a.array).space,
            MemSpace::Local | MemSpace::Constant
        )
}

/// Where a pair is reported among the others: by its sites, same-block
/// before cross-block, and pairs of phases that are not `assumed` first
/// (so that the race reported for a pair of sites is the most certain one
/// found), then by the instances' iteration roles. Unique per pair.
type PairOrder = (usize, usize, u8, Vec<Role>, Vec<Role>);

fn pair_order(p: &Pair) -> PairOrder {
    let (a, b) = p.sites();
    match p {
        Pair::SameBlock {
            a: x,
            b: y,
            assumed,
        } => (
            a.min(b),
            a.max(b),
            u8::from(*assumed),
            x.path.clone(),
            y.path.clone(),
        ),
        Pair::CrossBlock { assumed, .. } => (
            a.min(b),
            a.max(b),
            2 + u8::from(*assumed),
            Vec::new(),
            Vec::new(),
        ),
    }
}

/// The pairs that may conflict among the pairs of sites `keep` accepts:
/// same-block pairs of instances per phase, cross-block pairs of sites per
/// grid phase, in [`pair_order`]. Quadratic in a phase's accesses, so
/// asked only for the pairs a race or an inconclusive batch concerns.
fn candidate_pairs(
    kernel: &Kernel,
    aligned: &crate::align::Aligned<'_>,
    keep: &dyn Fn(usize, usize) -> bool,
) -> Vec<Pair> {
    let sites = &aligned.sites;
    let mut same: HashMap<(Inst, Inst), bool> = HashMap::new();
    for phase in &aligned.phases {
        let insts = &phase.insts;
        for i in 0..insts.len() {
            for j in i..insts.len() {
                let (x, y) = (&insts[i], &insts[j]);
                if !keep(x.site, y.site) {
                    continue;
                }
                let (a, b) = (sites[x.site].access, sites[y.site].access);
                if !may_conflict(kernel, a, b) || (atomic_at(a, false) && atomic_at(b, false)) {
                    continue;
                }
                let key = if x <= y {
                    (x.clone(), y.clone())
                } else {
                    (y.clone(), x.clone())
                };
                let e = same.entry(key).or_insert(true);
                *e &= phase.assumed;
            }
        }
    }
    let mut pairs: Vec<Pair> = same
        .into_iter()
        .map(|((a, b), assumed)| Pair::SameBlock { a, b, assumed })
        .collect();
    let mut cross: HashMap<(usize, usize), bool> = HashMap::new();
    for phase in &aligned.grid_phases {
        let s = &phase.sites;
        for (k, &i) in s.iter().enumerate() {
            for &j in &s[k..] {
                if !keep(i, j) {
                    continue;
                }
                let (a, b) = (sites[i].access, sites[j].access);
                if may_conflict(kernel, a, b)
                    && kernel.array(a.array).space == MemSpace::Global
                    && !(atomic_at(a, true) && atomic_at(b, true))
                {
                    *cross.entry((i, j)).or_insert(true) &= phase.assumed;
                }
            }
        }
    }
    pairs.extend(
        cross
            .into_iter()
            .map(|((a, b), assumed)| Pair::CrossBlock { a, b, assumed }),
    );
    pairs.sort_by_key(pair_order);
    pairs
}

/// The most pairs of one batched group asked one by one when its batch
/// query gives up; a larger group is reported inconclusive as a whole.
const MAX_PAIRWISE_FALLBACK: usize = 20_000;

/// Whether a candidate pair is one of `group`'s pairs.
fn in_group(group: &batch::Group, pair: &Pair) -> bool {
    match (pair, group.scope) {
        (Pair::SameBlock { a, b, .. }, RaceScope::SameBlock) => {
            group.members.contains(a) && group.members.contains(b)
        }
        (Pair::CrossBlock { a, b, .. }, RaceScope::CrossBlock) => {
            let has = |s: usize| group.members.iter().any(|m| m.site == s);
            has(*a) && has(*b)
        }
        _ => false,
    }
}

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
}

/// A solver with the global constants declared.
pub(crate) struct Session {
    pub(crate) solver: Solver,
    pub(crate) globals: Globals,
    /// The synchronized loops whose well-formedness context the solver's
    /// open scopes hold (see [`enter_context`]).
    context: Vec<ContextLoop>,
    /// The pair class's condition on two threads of one block (see
    /// `groups`), for the two-thread questions.
    pub(crate) class: Option<Term>,
}

/// One synchronized loop of a well-formedness context.
struct ContextLoop {
    /// The loop, compared by address only.
    ptr: *const ForLoop,
    /// Its variable, shared by the two threads of a block.
    var: Term,
    id: LoopId,
    /// The constants and constraints of its domain, as asserted (replayed
    /// in a question about every launch, see `universal`).
    decls: Vec<(String, Sort)>,
    constraints: Vec<Term>,
}

impl Session {
    /// The question "for every launch?" of a query in the current context:
    /// the context loops' domains come first, as they were asserted.
    fn question(&self, parts: QueryParts) -> Question {
        Question {
            decls: self
                .context
                .iter()
                .flat_map(|c| c.decls.iter().cloned())
                .chain(parts.decls)
                .collect(),
            reach: self
                .context
                .iter()
                .flat_map(|c| c.constraints.iter().cloned())
                .chain(parts.reach)
                .collect(),
            collide: parts.goal,
            across: None,
        }
    }

    /// The two threads are in one block.
    fn same_block(&self) -> Term {
        self.globals.same_block()
    }

    /// What a race query over `scope` asserts of its two threads: they are
    /// two threads, of one block (and of the pair class, if any) or of two.
    pub(crate) fn scope_constraints(&self, scope: RaceScope) -> [Term; 2] {
        let [t1, t2] = &self.globals.threads;
        let same_block = self.same_block();
        let same_thread =
            term::and((0..3).map(|d| term::eq(t1.thread_idx[d].clone(), t2.thread_idx[d].clone())));
        [
            term::not(term::and([same_block.clone(), same_thread])),
            match scope {
                RaceScope::SameBlock => {
                    term::and([same_block].into_iter().chain(self.class.clone()))
                }
                RaceScope::CrossBlock => term::not(same_block),
            },
        ]
    }
}

/// The constants every query shares.
pub(crate) struct Globals {
    /// What is constant in this check (which strides are ground).
    pub(crate) constants: Constants,
    pub(crate) shared: Shared,
    pub(crate) threads: [ThreadVars; 2],
    /// Scalar parameters: name, type, constant.
    pub(crate) params: Vec<(String, ScalarTy, Term)>,
    /// What the session was sent to set these up (see `universal`).
    pub(crate) prelude: Prelude,
}

impl Globals {
    /// The two threads are in one block.
    pub(crate) fn same_block(&self) -> Term {
        let [t1, t2] = &self.threads;
        term::and((0..3).map(|d| term::eq(t1.block_idx[d].clone(), t2.block_idx[d].clone())))
    }
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

/// How long the refinement of a race with symbolic strides may take (at
/// most the per-query timeout): such constraints are nonlinear, and the
/// solver gives up on most of those it cannot decide quickly.
const REFINE_TIMEOUT: Duration = Duration::from_secs(1);

/// The same with the grid-stride lemma. Its proofs take z3 one to four
/// seconds after the first try, and over ten from a fresh start, so 4 s
/// failed on a loaded machine (`constructs/loops_grid_stride.cu` turned
/// into a possible race under CI): the lemma gets the default per-query
/// budget.
const LEMMA_REFINE_TIMEOUT: Duration = Duration::from_secs(10);

/// `check-sat` with the per-query timeout lowered to `short` (when that is
/// lower), restored to `normal` afterwards.
fn check_within(
    solver: &mut Solver,
    normal: Option<Duration>,
    short: Duration,
) -> Result<CheckResult, SmtError> {
    let lowered = normal.is_none_or(|n| short < n);
    if lowered {
        solver.command(&timeout_option(solver.kind(), Some(short)))?;
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

/// `hi - 1` in the loop's type.
fn hi_minus_one(l: &ForLoop) -> Sym {
    Sym::binary(BinOp::Sub, l.ty, l.hi.clone(), Sym::int(1, l.ty))
}

/// The first value of the loop variable.
fn first_value(l: &ForLoop) -> Sym {
    if l.step.increasing() {
        l.lo.clone()
    } else {
        hi_minus_one(l)
    }
}

/// The last value, when the step is a unit one (`None` otherwise: the
/// last value of a geometric or strided loop is not pinned).
fn last_value(l: &ForLoop) -> Option<Sym> {
    if !l.step.is_unit() {
        return None;
    }
    Some(match l.step {
        Step::Add(_) => hi_minus_one(l),
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

impl Oracle for Check<'_> {
    type Error = Fatal;

    fn uniform(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        values: &[&Sym],
    ) -> Result<Uniformity, Fatal> {
        self.uniform_in(sync_loops, guards, values, true)
    }

    fn grid_uniform(&mut self, guards: &[Sym], values: &[&Sym]) -> Result<Uniformity, Fatal> {
        self.uniform_in(&[], guards, values, false)
    }

    fn feasible(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        cond: &Sym,
    ) -> Result<bool, Fatal> {
        let r = self.scoped_query(sync_loops, guards, |e1, _| {
            e1.encode_as(cond, ScalarTy::Bool)
        })?;
        // Dead only on a clean `unsat`.
        match r {
            Ok(CheckResult::Unsat) => Ok(false),
            Ok(_) | Err(Fatal::Encode(_)) => Ok(true),
            Err(e) => Err(e),
        }
    }

    fn nonempty(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        l: &ForLoop,
    ) -> Result<bool, Fatal> {
        let r = self.scoped_query(sync_loops, guards, |e1, _| {
            let lo = e1.encode_as(&l.lo, l.ty)?;
            let hi = e1.encode_as(&l.hi, l.ty)?;
            let v = e1.encode_as(&first_value(l), l.ty)?;
            Ok(term::not(term::and(in_range(l, lo, v, hi))))
        })?;
        match r {
            Ok(CheckResult::Unsat) => Ok(true),
            Ok(_) | Err(Fatal::Encode(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

impl Check<'_> {
    /// Whether `values` are the same for any two threads (of one block, with
    /// `same_block`) under `guards`, in the context of `sync_loops`.
    fn uniform_in(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        values: &[&Sym],
        same_block: bool,
    ) -> Result<Uniformity, Fatal> {
        let n = self.queries;
        self.queries += 1;
        let self_kernel = self.kernel;
        let s = self.session()?;
        let entered = enter_context(s, n, sync_loops);
        s.solver.push()?;
        let mut approximate = false;
        let r = entered.and_then(|()| {
            context_query(s, n, guards, same_block, true, |e1, e2| {
                let mut differ = Vec::new();
                for v in values {
                    let ty = if v.ty() == ScalarTy::Bool {
                        ScalarTy::Bool
                    } else {
                        v.ty()
                    };
                    // Loop bounds the abstraction derived (`i <= n` as
                    // `i < n + 1`) are among `values`: no facts.
                    let x = e1.encode_as(v, ty)?;
                    let y = e2.encode_as(v, ty)?;
                    differ.push(term::not(term::eq(x, y)));
                }
                approximate = !e1.approximations.is_empty() || !e2.approximations.is_empty();
                let mut goal = vec![term::or(differ)];
                if same_block {
                    // Two threads of one block read a quiet load alike.
                    for (id, x) in &e1.block_uniform {
                        if let Some((_, y)) = e2.block_uniform.iter().find(|(j, _)| j == id) {
                            goal.push(term::eq(x.clone(), y.clone()));
                        }
                    }
                }
                Ok(term::and(goal))
            })
        });
        let mut question = None;
        let out = match r {
            Ok((CheckResult::Unsat, _)) => Ok(Uniformity::Uniform),
            Ok((CheckResult::Sat, parts)) => {
                // Two threads (of one block, with `same_block`) that
                // disagree: a divergence, with the parameters it reads.
                let mut read = Vec::new();
                for v in values.iter().copied().chain(guards) {
                    v.walk(&mut |x| {
                        if let Sym::Param { var, .. } = x {
                            read.push(self_kernel.var(*var).name.clone());
                        }
                    });
                }
                let threads = divergence_witness(s, &read).ok();
                let certainty = if approximate {
                    Certainty::Possible {
                        reasons: vec![
                            "the condition depends on values the analysis does not know".into()
                        ],
                    }
                } else {
                    question = Some(s.question(parts));
                    Certainty::Provable
                };
                Ok(Uniformity::Differs { threads, certainty })
            }
            Ok((CheckResult::Unknown(_), _)) => Ok(Uniformity::Unproved),
            // Not encodable: not proved uniform.
            Err(Fatal::Encode(_)) => Ok(Uniformity::Unproved),
            Err(e) => Err(e),
        };
        s.solver.pop()?;
        match (out, question) {
            (Ok(Uniformity::Differs { threads, .. }), Some(q)) => {
                let certainty = match self.divergence_for_every_launch(&q) {
                    Some(reason) => Certainty::Possible {
                        reasons: vec![reason],
                    },
                    None => Certainty::Provable,
                };
                Ok(Uniformity::Differs { threads, certainty })
            }
            (out, _) => out,
        }
    }

    /// Ends the session (its solver process released, so that the second
    /// solver of `universal` is the thread's one capped process) and keeps
    /// what it declared; the next query starts a new session.
    fn end_session(&mut self) -> Option<Globals> {
        let Session {
            solver, globals, ..
        } = self.session.take()?;
        drop(solver);
        Some(globals)
    }

    /// Whether two threads of a block disagree (as a query found they can)
    /// for every launch and argument, asked as races are (see `universal`:
    /// are there arguments and open dimensions under which the context is
    /// reached, yet no two threads of a block disagree?). `None`: for
    /// every one, the divergence is *provable*; otherwise why it is only
    /// possible. The session ends first (one capped solver process per
    /// thread); the next query starts a new one.
    fn divergence_for_every_launch(&mut self, q: &Question) -> Option<String> {
        let Some(globals) = self.end_session() else {
            return Some("not shown to happen for every launch and argument".into());
        };
        universal(&self.config, &globals, &self.kernel.launch)
            .ask(q)
            .reason_as("the threads of each block agree at the barrier")
    }

    /// One well-formedness query in its own push/pop scope: the inner
    /// result is the query's (an encoding failure included); the outer one
    /// fails only when the session itself does.
    fn scoped_query(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        goal: impl FnOnce(&mut Encoder<'_>, &mut Encoder<'_>) -> Result<Term, EncodeError>,
    ) -> Result<Result<CheckResult, Fatal>, Fatal> {
        let n = self.queries;
        self.queries += 1;
        let s = self.session()?;
        let entered = enter_context(s, n, sync_loops);
        s.solver.push()?;
        let r =
            entered.and_then(|()| context_query(s, n, guards, true, false, goal).map(|(r, _)| r));
        s.solver.pop()?;
        Ok(r)
    }
}

/// A model value as an integer of type `ty` (signed types read two's
/// complement; booleans are 0 or 1; anything else 0).
pub(crate) fn typed_value(v: &warpsafe_smt::Value, ty: ScalarTy) -> i128 {
    match v {
        warpsafe_smt::Value::BitVec { .. } if ty.is_signed() => v.as_signed().unwrap_or(0),
        warpsafe_smt::Value::BitVec { value, .. } => *value as i128,
        warpsafe_smt::Value::Bool(b) => i128::from(*b),
        _ => 0,
    }
}

/// Both threads' ids, and the values of the parameters named in `read`,
/// from the model of a satisfiable query.
fn divergence_witness(s: &mut Session, read: &[String]) -> Result<DivergenceWitness, SmtError> {
    let mut terms = Vec::new();
    for t in &s.globals.threads {
        terms.extend(t.block_idx.iter().cloned());
        terms.extend(t.thread_idx.iter().cloned());
    }
    let params: Vec<&(String, ScalarTy, Term)> = s
        .globals
        .params
        .iter()
        .filter(|(name, _, _)| read.contains(name))
        .collect();
    terms.extend(params.iter().map(|p| p.2.clone()));
    let v = s.solver.get_values(&terms)?;
    let u = |i: usize| match v.get(i) {
        Some(warpsafe_smt::Value::BitVec { value, .. }) => *value as u64,
        _ => 0,
    };
    let t = |k: usize| ThreadId {
        block_idx: [u(6 * k), u(6 * k + 1), u(6 * k + 2)],
        thread_idx: [u(6 * k + 3), u(6 * k + 4), u(6 * k + 5)],
    };
    let params = params
        .iter()
        .enumerate()
        .map(|(k, (name, ty, _))| (name.clone(), typed_value(&v[12 + k], *ty)))
        .collect();
    Ok(DivergenceWitness {
        threads: [t(0), t(1)],
        params,
    })
}

/// Makes the solver's scopes hold the well-formedness context of
/// `sync_loops` (the enclosing synchronized loops, outermost first): one
/// scope per loop, with its variable shared by the two threads of a block
/// and constrained to its range. Scopes of loops no longer enclosing are
/// popped first. Aligning walks the protocol depth first, so consecutive
/// queries share most of their context and it is sent once, not once per
/// query (linear, not quadratic, in the nesting depth).
fn enter_context(s: &mut Session, n: usize, sync_loops: &[&ForLoop]) -> Result<(), Fatal> {
    let common = s
        .context
        .iter()
        .zip(sync_loops)
        .take_while(|(c, l)| std::ptr::eq(c.ptr, **l))
        .count();
    while s.context.len() > common {
        s.solver.pop()?;
        s.context.pop();
    }
    for (k, l) in sync_loops.iter().enumerate().skip(common) {
        let g = &s.globals;
        let mut e = Encoder::new(&g.shared, &g.threads[0], &format!("wf{n}l{k}"));
        e.loop_vars = s.context.iter().map(|c| (c.id, c.var.clone())).collect();
        let lo = e.encode_as(&l.lo, l.ty)?;
        let hi = e.encode_as(&l.hi, l.ty)?;
        let v = e.fresh("v", sort_of(l.ty)?);
        // Encoded before the scope opens: a failure leaves the stack and
        // the solver's scopes in step.
        // A symbolic stride is left out of well-formedness queries.
        let (constraints, _) = domain(&mut e, &g.constants, l, lo, v.clone(), hi)?;
        s.solver.push()?;
        for (name, sort) in &e.decls {
            s.solver.declare_const(name, sort)?;
        }
        for a in &constraints {
            s.solver.assert(a)?;
        }
        s.context.push(ContextLoop {
            ptr: *l as *const ForLoop,
            var: v,
            id: l.loop_id,
            decls: e.decls,
            constraints,
        });
    }
    Ok(())
}

/// What a well-formedness query asserted beyond the session's globals
/// and its context's loops: with those (see [`Session::question`]), the
/// question "for every launch?" is built from it (see `universal`).
struct QueryParts {
    /// Constants of both threads' encoders.
    decls: Vec<(String, Sort)>,
    /// The enclosing conditions for both threads and the encoders' facts.
    reach: Vec<Term>,
    /// The goal, with what makes the two threads a pair of one block.
    goal: Vec<Term>,
}

/// Asserts the per-query part of a well-formedness context (the enclosing
/// conditions, for both threads, over the loop variables of the context
/// that [`enter_context`] set up) and `goal`, built from both threads'
/// encoders, and checks. The caller pushes and pops.
fn context_query(
    s: &mut Session,
    n: usize,
    guards: &[Sym],
    same_block: bool,
    pair: bool,
    goal: impl FnOnce(&mut Encoder<'_>, &mut Encoder<'_>) -> Result<Term, EncodeError>,
) -> Result<(CheckResult, QueryParts), Fatal> {
    let g = &s.globals;
    let vars: HashMap<LoopId, Term> = s.context.iter().map(|c| (c.id, c.var.clone())).collect();
    let mut asserts = Vec::new();
    let mut decls = Vec::new();
    let mut e1 = Encoder::new(&g.shared, &g.threads[0], &format!("wf{n}t1"));
    let mut e2 = Encoder::new(&g.shared, &g.threads[1], &format!("wf{n}t2"));
    e1.loop_vars = vars.clone();
    e2.loop_vars = vars;
    for c in guards {
        asserts.push(e1.encode_program(c, ScalarTy::Bool)?);
        asserts.push(e2.encode_program(c, ScalarTy::Bool)?);
    }
    let mut goals = vec![goal(&mut e1, &mut e2)?];
    asserts.append(&mut e1.facts);
    asserts.append(&mut e2.facts);
    decls.extend(e1.decls);
    decls.extend(e2.decls);
    for (name, sort) in &decls {
        s.solver.declare_const(name, sort)?;
    }
    for a in asserts.iter().chain(&goals) {
        s.solver.assert(a)?;
    }
    if same_block {
        goals.push(s.same_block());
        s.solver.assert(&s.same_block())?;
        if let Some(class) = s.class.as_ref().filter(|_| pair) {
            goals.push(class.clone());
            s.solver.assert(class)?;
        }
    }
    let result = s.solver.check()?;
    let parts = QueryParts {
        decls,
        reach: asserts,
        goal: goals,
    };
    Ok((result, parts))
}

impl<'k> Check<'k> {
    pub(crate) fn new(
        kernel: &'k Kernel,
        kp: &'k KernelProtocol,
        config: SolverConfig,
        param_values: &'k [(String, i128)],
        assumptions: Assumptions,
        global_reasons: Vec<String>,
    ) -> Check<'k> {
        Check {
            kernel,
            kp,
            config,
            session: None,
            races: Vec::new(),
            inconclusive: Vec::new(),
            global_reasons,
            queries: 0,
            clear_batches: HashSet::new(),
            param_values,
            divergences: Vec::new(),
            late_assumes: false,
            assumptions,
            max_races: None,
            stopped_early: false,
            class: None,
        }
    }

    /// Aligns, then runs every query. `Ok(Some(..))`: aligning gave up
    /// (UNKNOWN with the reason and span).
    fn run(&mut self) -> Result<Option<(String, Span)>, Fatal> {
        let kp = self.kp;
        let aligned = match align(&kp.body, self) {
            Ok(a) => a,
            Err(AlignError::Unsupported(reason, span)) => return Ok(Some((reason, span))),
            Err(AlignError::Divergent(d)) => {
                self.divergences = d;
                return Ok(None);
            }
            Err(AlignError::Oracle(e)) => return Err(e),
        };
        if let Some(s) = self.session.as_mut() {
            enter_context(s, 0, &[])?;
        }
        let sites = &aligned.sites;
        let (kernel, only_intra_group) = (self.kernel, self.assumptions.only_intra_group);
        // Pairs inside a warp or tile are of one block.
        let inside = self.class.as_ref().is_some_and(|c| c.inside());
        let pairs_where = |keep: &dyn Fn(usize, usize) -> bool| {
            let mut pairs = candidate_pairs(kernel, &aligned, keep);
            if only_intra_group || inside {
                pairs.retain(|p| matches!(p, Pair::SameBlock { .. }));
            }
            pairs
        };
        // Racy pairs of locations per array, and each race with its pair's
        // place in the report.
        let mut racy = batch::Blocked::new();
        let mut found: Vec<(PairOrder, (Race, Option<Question>))> = Vec::new();
        let mut done: HashSet<PairOrder> = HashSet::new();
        for group in batch::groups(self.kernel, &aligned) {
            if inside && group.scope == RaceScope::CrossBlock {
                continue;
            }
            if self.max_races.is_some_and(|m| found.len() >= m) {
                self.stopped_early = true;
                break;
            }
            loop {
                match self.batch_query(sites, &group, &racy)? {
                    Outcome::Clear => break,
                    Outcome::Racy(array, x, y) => {
                        // The most certain race of that pair of locations
                        // on that array, from the pairwise queries in
                        // their order.
                        racy.insert((array, x, y));
                        let at = |i: usize, span: Span| {
                            sites[i].access.array == array && sites[i].access.span == span
                        };
                        let pairs =
                            pairs_where(&|i, j| (at(i, x) && at(j, y)) || (at(i, y) && at(j, x)));
                        for pair in &pairs {
                            if !done.insert(pair_order(pair)) {
                                continue;
                            }
                            if let Some(race) = self.pair_query(sites, pair)? {
                                found.push((pair_order(pair), race));
                                break;
                            }
                        }
                    }
                    Outcome::Inconclusive => {
                        let m = group.members.len();
                        if m * (m + 1) / 2 > MAX_PAIRWISE_FALLBACK {
                            // Too many pairs to ask one by one.
                            let first = sites[group.members[0].site].access;
                            self.inconclusive.push((
                                first.clone(),
                                first.clone(),
                                format!(
                                    "the batched query of {m} accesses gave up, and their {} pairs are too many to ask one by one",
                                    m * (m + 1) / 2
                                ),
                            ));
                            break;
                        }
                        // Every pair of the group, one query each.
                        let members: HashSet<usize> =
                            group.members.iter().map(|i| i.site).collect();
                        let pairs =
                            pairs_where(&|i, j| members.contains(&i) && members.contains(&j));
                        for pair in &pairs {
                            let (i, j) = pair.sites();
                            let (r, a, b) = (
                                sites[i].access.array,
                                sites[i].access.span,
                                sites[j].access.span,
                            );
                            if !in_group(&group, pair)
                                || batch::is_blocked(&racy, r, a, b)
                                || !done.insert(pair_order(pair))
                            {
                                continue;
                            }
                            if let Some(race) = self.pair_query(sites, pair)? {
                                racy.insert((r, a, b));
                                found.push((pair_order(pair), race));
                            }
                        }
                        break;
                    }
                }
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(m) = self.max_races {
            self.stopped_early |= found.len() > m;
            found.truncate(m);
        }
        let races = found.into_iter().map(|(_, r)| r).collect();
        let races = self.for_every_launch(races);
        self.races.extend(races);
        Ok(None)
    }

    /// Keeps *provable* only the races that happen for every launch and
    /// argument (see `universal`), once the session is over.
    fn for_every_launch(&mut self, races: Vec<(Race, Option<Question>)>) -> Vec<Race> {
        if races.iter().all(|(_, q)| q.is_none()) {
            return races.into_iter().map(|(r, _)| r).collect();
        }
        let globals = self
            .end_session()
            .expect("invariant: a race was found in the session");
        let mut universal = universal(&self.config, &globals, &self.kernel.launch);
        let mut out = Vec::new();
        for (mut race, question) in races {
            if let Some(q) = question {
                let answer = universal.ask(&q);
                if let Some(reason) = answer.reason() {
                    race.certainty = Certainty::Possible {
                        reasons: vec![reason],
                    };
                }
            }
            out.push(race);
        }
        out
    }

    /// The pairwise query of one candidate pair.
    fn pair_query(
        &mut self,
        sites: &[Site<'_>],
        pair: &Pair,
    ) -> Result<Option<(Race, Option<Question>)>, Fatal> {
        let (i, j) = pair.sites();
        match pair {
            Pair::SameBlock {
                a: x,
                b: y,
                assumed,
            } => self.query(sites, Some((x, y)), *assumed, i, j),
            Pair::CrossBlock { assumed, .. } => self.query(sites, None, *assumed, i, j),
        }
    }

    pub(crate) fn session(&mut self) -> Result<&mut Session, Fatal> {
        if self.session.is_none() {
            let mut solver = Solver::start(self.config.clone())?;
            let globals = self.declare_globals(&mut solver, self.kp)?;
            // Two threads of one block are in the class; asserted with
            // "same block" in the two-thread questions only (a
            // one-thread question, whether a branch is dead, is not about
            // pairs: an empty class must not make every branch dead).
            let class = self.class.as_ref().map(|class| {
                let [t1, t2] = &globals.threads;
                let bd = &globals.shared.block_dim;
                let rank = |t: &[Term; 3]| {
                    term::bvadd(
                        term::bvadd(t[0].clone(), term::bvmul(t[1].clone(), bd[0].clone())),
                        term::bvmul(t[2].clone(), term::bvmul(bd[0].clone(), bd[1].clone())),
                    )
                };
                class.condition(&rank(&t1.thread_idx), &rank(&t2.thread_idx))
            });
            self.session = Some(Session {
                solver,
                globals,
                context: Vec::new(),
                class,
            });
        }
        Ok(self.session.as_mut().expect("invariant: started"))
    }

    fn declare_globals(
        &mut self,
        solver: &mut Solver,
        kp: &KernelProtocol,
    ) -> Result<Globals, Fatal> {
        let u32s = Sort::BitVec(32);
        let mut prelude = Prelude::default();
        let mut dims =
            |solver: &mut Solver, name: &str, thread: bool| -> Result<[Term; 3], SmtError> {
                Ok([
                    prelude.declare(solver, &format!("{name}_x"), &u32s, thread)?,
                    prelude.declare(solver, &format!("{name}_y"), &u32s, thread)?,
                    prelude.declare(solver, &format!("{name}_z"), &u32s, thread)?,
                ])
            };
        let mut block_dim = dims(solver, "blockDim", false)?;
        let mut grid_dim = dims(solver, "gridDim", false)?;
        // A dimension the launch fixes is its literal in every term: a
        // product with it stays linear (a named constant made `blockDim.x *
        // threadIdx.y` a product of two unknowns to the solver, slow in
        // the quantified question of `universal`). The named constant is
        // still declared and equal to it (below), for models and replays.
        let launch = &self.kernel.launch;
        let literal = |v: u64| term::bv(u128::from(v), 32);
        let named_block = block_dim.clone();
        let named_grid = grid_dim.clone();
        for d in 0..3 {
            if let Some(b) = launch.block_dim(d) {
                block_dim[d] = literal(b);
            }
            if let Some(g) = launch.grid_dim(d) {
                grid_dim[d] = literal(g);
            }
        }
        let threads = [
            ThreadVars {
                thread_idx: dims(solver, "t1_threadIdx", true)?,
                block_idx: dims(solver, "t1_blockIdx", true)?,
                global_idx: dims(solver, "t1_globalIdx", true)?,
            },
            ThreadVars {
                thread_idx: dims(solver, "t2_threadIdx", true)?,
                block_idx: dims(solver, "t2_blockIdx", true)?,
                global_idx: dims(solver, "t2_globalIdx", true)?,
            },
        ];
        let mut params = Vec::new();
        let mut param_map = std::collections::HashMap::new();
        for v in &self.kernel.vars {
            if v.kind != VarKind::Param || v.ty.is_float() {
                continue;
            }
            let c = prelude.declare(solver, &format!("param{}", v.id.0), &sort_of(v.ty)?, false)?;
            if let Some((_, value)) = self.param_values.iter().find(|(n, _)| *n == v.name) {
                let bits = v.ty.bits();
                let mask = if bits >= 128 {
                    u128::MAX
                } else {
                    (1u128 << bits) - 1
                };
                let value = if v.ty == ScalarTy::Bool {
                    term::bool(*value != 0)
                } else {
                    term::bv((*value as u128) & mask, bits)
                };
                prelude.assert(solver, term::eq(c.clone(), value), Fact::Launch)?;
            }
            param_map.insert(v.id, c.clone());
            params.push((v.name.clone(), v.ty, c));
        }
        // Launch dimensions: CUDA's limits, and the concrete values if known.
        let u = literal;
        // Concrete dimensions are taken as given, even beyond CUDA's limits
        // (such a launch fails on a GPU; a note says so); symbolic ones
        // range over what CUDA allows.
        for d in 0..3 {
            prelude.assert(
                solver,
                term::bvuge(block_dim[d].clone(), u(1)),
                Fact::Launch,
            )?;
            prelude.assert(solver, term::bvuge(grid_dim[d].clone(), u(1)), Fact::Launch)?;
            // A full triple, or a part of one (a dimension the kernel never
            // reads, assumed 1).
            match launch.block_dim(d) {
                Some(b) => {
                    prelude.assert(solver, term::eq(named_block[d].clone(), u(b)), Fact::Launch)?
                }
                None => prelude.assert(
                    solver,
                    term::bvule(block_dim[d].clone(), u(BLOCK_LIMITS[d])),
                    Fact::Launch,
                )?,
            }
            match launch.grid_dim(d) {
                Some(g) => {
                    prelude.assert(solver, term::eq(named_grid[d].clone(), u(g)), Fact::Launch)?
                }
                None => prelude.assert(
                    solver,
                    term::bvule(grid_dim[d].clone(), u(GRID_LIMITS[d])),
                    Fact::Launch,
                )?,
            }
            for t in &threads {
                let [id, block] = [
                    term::bvult(t.thread_idx[d].clone(), block_dim[d].clone()),
                    term::bvult(t.block_idx[d].clone(), grid_dim[d].clone()),
                ];
                prelude.assert(solver, id, Fact::Thread)?;
                prelude.assert(solver, block, Fact::Thread)?;
            }
        }
        let wide = |t: &Term| term::zero_extend(32, t.clone());
        let threads_per_block = term::bvmul(
            term::bvmul(wide(&block_dim[0]), wide(&block_dim[1])),
            wide(&block_dim[2]),
        );
        if launch.block.is_none() {
            prelude.assert(
                solver,
                term::bvule(
                    threads_per_block,
                    term::bv(u128::from(max_threads_per_block(launch)), 64),
                ),
                Fact::Launch,
            )?;
        }
        global_index_lemmas(
            solver,
            &mut prelude,
            launch,
            self.assumptions,
            &block_dim,
            &grid_dim,
            &threads,
        )?;
        if bounds_threads_along_x(launch, self.assumptions.huge_grids) {
            prelude.assert(
                solver,
                term::bvule(
                    term::bvmul(wide(&grid_dim[0]), wide(&block_dim[0])),
                    term::bv(u128::from(MAX_THREADS_ALONG_X), 64),
                ),
                Fact::Launch,
            )?;
        }
        let mut globals = Globals {
            prelude,
            constants: Constants::new(self.kernel, self.param_values, &kp.preconditions),
            shared: Shared {
                block_dim,
                grid_dim,
                params: param_map,
                signed_wrap: self.assumptions.signed_wrap,
            },
            threads,
            params,
        };
        // Unconditional preconditions, for both threads.
        let mut dropped = 0;
        let mut dropped_aligned = 0;
        let mut approximate = false;
        let mut late = 0;
        for (k, c) in kp.preconditions.iter().enumerate() {
            // A counter bound is used where it holds for the whole kernel,
            // else left out silently: its loop is then not exact, which
            // the races found in it say.
            if c.origin == crate::ConditionOrigin::CounterNoWrap
                && (self.assumptions.counter_wrap || !c.is_assumed_counter_bound())
            {
                continue;
            }
            if !c.guard.is_true() || c.in_loop {
                if c.origin == crate::ConditionOrigin::Assume(warpsafe_ir::AssumeOrigin::Aligned) {
                    dropped_aligned += 1;
                } else {
                    dropped += 1;
                }
                continue;
            }
            // An `__assume` after accesses constrains only what follows it;
            // assuming it for the whole kernel would hide races before it.
            if c.after_effects
                && !self.late_assumes
                && matches!(
                    c.origin,
                    crate::ConditionOrigin::Assume(
                        warpsafe_ir::AssumeOrigin::Assume | warpsafe_ir::AssumeOrigin::Aligned
                    )
                )
            {
                late += 1;
                continue;
            }
            let mut encoded = Vec::new();
            for (n, t) in globals.threads.iter().enumerate() {
                let mut e = Encoder::new(&globals.shared, t, &format!("pre{k}t{}", n + 1));
                if let Ok(term) = e.encode_program(&c.cond, ScalarTy::Bool) {
                    approximate |= !e.approximations.is_empty();
                    encoded.push((e.decls, term::and(std::iter::once(term).chain(e.facts))));
                }
            }
            if encoded.len() != 2 {
                // Not assuming a precondition over-approximates.
                dropped += 1;
                continue;
            }
            for (decls, cond) in encoded {
                for (name, sort) in &decls {
                    globals.prelude.declare(solver, name, sort, true)?;
                }
                globals.prelude.assert(solver, cond, Fact::Thread)?;
            }
        }
        if dropped > 0 {
            self.global_reasons.push(format!(
                "{dropped} precondition(s) under a condition or in a loop were not assumed"
            ));
        }
        if dropped_aligned > 0 {
            self.global_reasons.push(format!(
                "{dropped_aligned} alignment assumption(s) of pointer casts under a condition or in a loop were not used (a misaligned address would fault)"
            ));
        }
        if late > 0 {
            self.global_reasons.push(format!(
                "{late} `__assume`(s) after memory accesses were not assumed for the whole kernel"
            ));
        }
        if approximate {
            self.global_reasons
                .push("a precondition depends on unknown values".into());
        }
        Ok(globals)
    }

    /// Declares the shared constants of a same-block query for the
    /// instances `insts` and returns them with their constraints, each
    /// entry with the instances (indices into `insts`) that need it.
    ///
    /// With `referenced_only`, an instance needs only the constants its
    /// guards, index and own loops' bounds mention (and, transitively, those
    /// the needed loops' bounds and steps mention): dropping the others'
    /// constraints over-approximates (used by the batched queries, whose
    /// answers are confirmed pairwise).
    pub(crate) fn binders<'p>(
        globals: &Globals,
        prefix: &str,
        insts: &[(&Site<'p>, &Inst)],
        referenced_only: bool,
    ) -> Result<Binders<'p>, EncodeError> {
        let mut wanted: Vec<(BinderKey, &'p ForLoop, Vec<usize>)> = Vec::new();
        let mut want = |k: BinderKey, l: &'p ForLoop, user: usize| match wanted
            .iter_mut()
            .find(|(w, _, _)| *w == k)
        {
            Some((_, _, users)) => {
                if !users.contains(&user) {
                    users.push(user);
                }
            }
            None => wanted.push((k, l, vec![user])),
        };
        for (user, (site, inst)) in insts.iter().enumerate() {
            let key = inst_key(site, inst);
            let needed = if referenced_only {
                referenced_sync_loops(site)
            } else {
                vec![true; key.len()]
            };
            for n in 1..=key.len() {
                if !needed[n - 1] {
                    continue;
                }
                let l = site.sync_loops[n - 1];
                let mut k = key[..n].to_vec();
                want(k.clone(), l, user);
                // The previous iteration is linked to the current one.
                if k[n - 1].1 == Role::Prev {
                    k[n - 1].1 = Role::Cur;
                    want(k, l, user);
                }
            }
        }
        wanted.sort_by_key(|(k, _, _)| k.len());
        let mut binders = Binders {
            entries: Vec::new(),
            constraints: Vec::new(),
            decls: Vec::new(),
            strides: Vec::new(),
        };
        for (idx, (key, l, users)) in wanted.iter().enumerate() {
            let mut e = Encoder::new(
                &globals.shared,
                &globals.threads[0],
                &format!("{prefix}s{idx}"),
            );
            e.loop_vars = binders.loop_vars(&key[..key.len() - 1]);
            let v = e.fresh("sync", sort_of(l.ty)?);
            let lo = e.encode_as(&l.lo, l.ty)?;
            let hi = e.encode_as(&l.hi, l.ty)?;
            let (mut constraints, strided) =
                domain(&mut e, &globals.constants, l, lo, v.clone(), hi)?;
            binders.strides.extend(strided);
            let pinned = match key[key.len() - 1].1 {
                Role::First => Some(first_value(l)),
                Role::Last => last_value(l),
                Role::Cur | Role::Prev => None,
            };
            if let Some(value) = pinned {
                let value = e.encode_as(&value, l.ty)?;
                constraints.push(term::eq(v.clone(), value));
            } else if key[key.len() - 1].1 == Role::Last {
                // A strided last iteration: the step from it leaves the range.
                constraints.extend(stride::last(&mut e, (*l).into(), &v)?);
            }
            binders.decls.extend(e.decls);
            binders.entries.push((key.clone(), *l, v));
            binders.constraints.push((constraints, users.clone()));
        }
        // cur = step(prev), for every previous iteration.
        for k in 0..binders.entries.len() {
            let (key, l, prev) = &binders.entries[k];
            if key[key.len() - 1].1 != Role::Prev {
                continue;
            }
            let mut cur_key = key.clone();
            cur_key.last_mut().expect("invariant: non-empty key").1 = Role::Cur;
            let cur = binders.get(&cur_key).expect("invariant: declared").clone();
            let mut e = Encoder::new(
                &globals.shared,
                &globals.threads[0],
                &format!("{prefix}p{k}"),
            );
            e.loop_vars = binders.loop_vars(&key[..key.len() - 1]);
            e.loop_vars.insert(l.loop_id, prev.clone());
            let next = e.encode_as(&step_sym(l), l.ty)?;
            binders.decls.extend(e.decls);
            binders.constraints[k].0.push(term::eq(cur, next));
        }
        Ok(binders)
    }

    /// Encodes one side: `bound` are the shared synchronized loop
    /// variables, `fresh` the loops whose variables are this thread's own.
    pub(crate) fn encode_side(
        &self,
        globals: &Globals,
        thread: usize,
        prefix: &str,
        site: &Site<'_>,
        bound: HashMap<LoopId, Term>,
        fresh: &[&ForLoop],
    ) -> Result<(Side, Vec<(String, Sort)>), EncodeError> {
        let mut e = Encoder::new(&globals.shared, &globals.threads[thread], prefix);
        e.loop_vars = bound;
        let mut constraints = Vec::new();
        let mut strides = Vec::new();
        let mut progressions = Vec::new();
        let mut loops = Vec::new();
        for l in fresh {
            let lo = e.encode_as(&l.lo, l.ty)?;
            let hi = e.encode_as(&l.hi, l.ty)?;
            let v = e.fresh("loop", sort_of(l.ty)?);
            e.loop_vars.insert(l.loop_id, v.clone());
            let (range, strided) = domain(&mut e, &globals.constants, l, lo, v.clone(), hi)?;
            constraints.extend(range);
            if strided.is_some() {
                progressions.extend(stride::progression(&mut e, (*l).into(), &v)?);
            }
            strides.extend(strided);
            loops.push((self.kernel.var(l.var).name.clone(), l.ty, v));
        }
        for g in &site.guards {
            constraints.push(e.encode_program(g, ScalarTy::Bool)?);
        }
        let mut index_ty = site.access.index.ty();
        if index_ty == ScalarTy::Bool {
            index_ty = ScalarTy::U8;
        }
        let index = e.encode_program(&site.access.index, index_ty)?;
        constraints.append(&mut e.facts);
        let rows = crate::rows::rows(&mut e, &site.access.index)?;
        let side = Side {
            constraints,
            strides,
            progressions,
            index,
            index_ty,
            loops,
            reasons: e.approximations,
            wrap_facts: e.wrap_facts,
            rows,
        };
        Ok((side, e.decls))
    }

    /// One query: `same` gives the two instances for a same-block query,
    /// `None` is a cross-block one; `assumed`: every phase holding the pair
    /// is assumed.
    fn query(
        &mut self,
        sites: &[Site<'_>],
        same: Option<(&Inst, &Inst)>,
        assumed: bool,
        i: usize,
        j: usize,
    ) -> Result<Option<(Race, Option<Question>)>, Fatal> {
        self.session()?;
        let mut s = self.session.take().expect("invariant: started");
        let r = self.query_in(&mut s, sites, same, assumed, i, j);
        self.session = Some(s);
        r
    }

    fn query_in(
        &mut self,
        s: &mut Session,
        sites: &[Site<'_>],
        same: Option<(&Inst, &Inst)>,
        assumed: bool,
        i: usize,
        j: usize,
    ) -> Result<Option<(Race, Option<Question>)>, Fatal> {
        let n = self.queries;
        self.queries += 1;
        let kernel = self.kernel;
        let (a, b) = (&sites[i], &sites[j]);
        let scope = if same.is_some() {
            RaceScope::SameBlock
        } else {
            RaceScope::CrossBlock
        };
        let globals = &s.globals;
        let mut shared_constraints = Vec::new();
        let mut decls = Vec::new();
        let mut shared_vars: Vec<(String, ScalarTy, Term)> = Vec::new();
        let mut strides: Vec<Term> = Vec::new();
        let (s1, s2) = match same {
            Some((x, y)) => {
                let mut binders =
                    Self::binders(globals, &format!("q{n}"), &[(a, x), (b, y)], false)?;
                shared_constraints = std::mem::take(&mut binders.constraints)
                    .into_iter()
                    .flat_map(|(c, _)| c)
                    .collect();
                decls = std::mem::take(&mut binders.decls);
                strides = std::mem::take(&mut binders.strides);
                for (key, l, t) in &binders.entries {
                    let role = key[key.len() - 1].1;
                    let name = role_name(&kernel.var(l.var).name, role);
                    shared_vars.push((name, l.ty, t.clone()));
                }
                let (s1, d1) = self.encode_side(
                    globals,
                    0,
                    &format!("q{n}a"),
                    a,
                    binders.loop_vars(&inst_key(a, x)),
                    &a.loops,
                )?;
                let (s2, d2) = self.encode_side(
                    globals,
                    1,
                    &format!("q{n}b"),
                    b,
                    binders.loop_vars(&inst_key(b, y)),
                    &b.loops,
                )?;
                decls.extend(d1);
                decls.extend(d2);
                (s1, s2)
            }
            None => {
                // Barriers do not order blocks: every loop variable is the
                // thread's own.
                let (s1, d1) =
                    self.encode_side(globals, 0, &format!("q{n}a"), a, HashMap::new(), &all(a))?;
                let (s2, d2) =
                    self.encode_side(globals, 1, &format!("q{n}b"), b, HashMap::new(), &all(b))?;
                decls.extend(d1);
                decls.extend(d2);
                (s1, s2)
            }
        };
        let scope_constraints = s.scope_constraints(scope);
        let solver = &mut s.solver;
        solver.push()?;
        for (name, sort) in &decls {
            solver.declare_const(name, sort)?;
        }
        for c in shared_constraints
            .iter()
            .chain(&s1.constraints)
            .chain(&s2.constraints)
        {
            solver.assert(c)?;
        }
        let mut collide = crate::rows::lemmas(&s1.rows, &s2.rows);
        for lemma in &collide {
            solver.assert(lemma)?;
        }
        let (i1, equal) = same_slot(&s1, &s2);
        collide.push(equal);
        solver.assert(collide.last().expect("invariant: just pushed"))?;
        for c in &scope_constraints {
            solver.assert(c)?;
        }
        let result = solver.check()?;
        let race = match result {
            CheckResult::Unsat => None,
            CheckResult::Unknown(msg) => {
                self.inconclusive
                    .push((a.access.clone(), b.access.clone(), msg));
                None
            }
            CheckResult::Sat => {
                let rewitness = |solver: &mut Solver| {
                    witness(kernel, solver, globals, &shared_vars, &s1, &s2, i1.clone())
                };
                let mut witness = rewitness(solver)?;
                strides.extend(s1.strides.iter().chain(&s2.strides).cloned());
                // Refine with the symbolic strides, within a short time:
                // first alone (a race is found fastest so), then, if the
                // solver gives up, with the grid-stride lemma (which
                // refutes grid-stride loops, and slows down finding races;
                // z3 also proves more with it after the first try).
                let mut strides_used = true;
                if !strides.is_empty() {
                    let lemmas = stride::congruence(&s1.progressions, &s2.progressions);
                    let stages: [&[Term]; 2] = [&[], &lemmas];
                    for (stage, extra) in stages.into_iter().enumerate() {
                        if stage == 1 && lemmas.is_empty() {
                            break;
                        }
                        solver.push()?;
                        for c in strides.iter().chain(extra) {
                            solver.assert(c)?;
                        }
                        // The lemma's proofs take the solver seconds.
                        let limit = if extra.is_empty() {
                            REFINE_TIMEOUT
                        } else {
                            LEMMA_REFINE_TIMEOUT
                        };
                        let r = check_within(solver, self.config.timeout, limit)?;
                        match r {
                            CheckResult::Unsat => {
                                solver.pop()?;
                                solver.pop()?;
                                return Ok(None);
                            }
                            CheckResult::Sat => {
                                witness = rewitness(solver)?;
                                strides_used = true;
                                solver.pop()?;
                                break;
                            }
                            CheckResult::Unknown(_) => strides_used = false,
                        }
                        solver.pop()?;
                    }
                }
                // The loops whose symbolic strides the solver gave up on.
                let unrefined = (!strides_used).then_some(&globals.constants);
                let mut certainty = self.certainty(a, b, &s1, &s2, assumed, unrefined);
                if scope == RaceScope::CrossBlock && certainty == Certainty::Provable {
                    if let Some(reason) = one_block_kernel(kernel) {
                        certainty = Certainty::Possible {
                            reasons: vec![reason.to_string()],
                        };
                    }
                }
                // A race that needs unsigned arithmetic to wrap around is
                // real only for indices past 2^32: provable only with a
                // witness without a wrap (which also reads better).
                let wrap_facts: Vec<&Term> = s1.wrap_facts.iter().chain(&s2.wrap_facts).collect();
                if certainty == Certainty::Provable && !wrap_facts.is_empty() {
                    solver.push()?;
                    for c in &wrap_facts {
                        solver.assert(c)?;
                    }
                    if strides_used {
                        for c in &strides {
                            solver.assert(c)?;
                        }
                    }
                    let r = check_within(solver, self.config.timeout, REFINE_TIMEOUT)?;
                    match r {
                        CheckResult::Unsat => {
                            certainty = Certainty::Possible {
                                reasons: vec![NEEDS_WRAP.to_string()],
                            }
                        }
                        CheckResult::Sat => witness = rewitness(solver)?,
                        CheckResult::Unknown(_) => {
                            certainty = Certainty::Possible {
                                reasons: vec![MAY_NEED_WRAP.to_string()],
                            }
                        }
                    }
                    solver.pop()?;
                }
                // Asked once the session is over (see `universal`).
                let question = if certainty == Certainty::Provable {
                    // Without it (an encoding failure) fewer launches count
                    // as racy: the question errs towards *possible*.
                    let across = match same {
                        Some(_) if self.collides_across_blocks(a.access, b.access) => {
                            self.across(globals, &format!("q{n}x"), a, b).ok()
                        }
                        _ => None,
                    };
                    Some(Question {
                        decls: decls.clone(),
                        reach: shared_constraints
                            .iter()
                            .chain(&s1.constraints)
                            .chain(&s2.constraints)
                            .chain(&scope_constraints)
                            .chain(&strides)
                            .cloned()
                            .collect(),
                        collide: collide
                            .iter()
                            .cloned()
                            .chain(wrap_facts.iter().map(|&c| c.clone()))
                            .collect(),
                        across,
                    })
                } else {
                    None
                };
                let race = Race {
                    array: a.access.array,
                    array_name: kernel.array(a.access.array).name.clone(),
                    space: kernel.array(a.access.array).space,
                    first: race_access(a.access),
                    second: race_access(b.access),
                    scope,
                    certainty,
                    witness: Some(witness),
                };
                Some((race, question))
            }
        };
        solver.pop()?;
        Ok(race)
    }

    /// Whether the check also asks `a` and `b` between blocks (a global
    /// array, not both atomic at device scope, blocks not left out).
    fn collides_across_blocks(&self, a: &Access, b: &Access) -> bool {
        let blocks_left_out =
            self.assumptions.only_intra_group || self.class.as_ref().is_some_and(|c| c.inside());
        let both_atomic = atomic_at(a, true) && atomic_at(b, true);
        self.kernel.array(a.array).space == MemSpace::Global && !blocks_left_out && !both_atomic
    }

    /// `a` and `b` by two threads of different blocks, reached and
    /// colliding, over constants named from `prefix` (a disjunct of the
    /// question in `universal`).
    fn across(
        &self,
        globals: &Globals,
        prefix: &str,
        a: &Site<'_>,
        b: &Site<'_>,
    ) -> Result<Across, Fatal> {
        let (s1, mut decls) = self.encode_side(
            globals,
            0,
            &format!("{prefix}a"),
            a,
            HashMap::new(),
            &all(a),
        )?;
        let (s2, d2) = self.encode_side(
            globals,
            1,
            &format!("{prefix}b"),
            b,
            HashMap::new(),
            &all(b),
        )?;
        decls.extend(d2);
        let mut conjuncts: Vec<Term> = s1
            .constraints
            .iter()
            .chain(&s2.constraints)
            .chain(&s1.strides)
            .chain(&s2.strides)
            .chain(&s1.wrap_facts)
            .chain(&s2.wrap_facts)
            .cloned()
            .collect();
        conjuncts.extend(crate::rows::lemmas(&s1.rows, &s2.rows));
        conjuncts.push(term::not(globals.same_block()));
        conjuncts.push(same_slot(&s1, &s2).1);
        Ok(Across { decls, conjuncts })
    }

    fn certainty(
        &self,
        a: &Site<'_>,
        b: &Site<'_>,
        s1: &Side,
        s2: &Side,
        assumed: bool,
        unrefined: Option<&Constants>,
    ) -> Certainty {
        let mut reasons: Vec<String> = Vec::new();
        let mut add = |r: String| {
            if !reasons.contains(&r) {
                reasons.push(r);
            }
        };
        for r in s1.reasons.iter().chain(&s2.reasons) {
            add(describe_reason(self.kernel, r));
        }
        for site in [a, b] {
            for l in site.sync_loops.iter().chain(&site.loops) {
                let name = &self.kernel.var(l.var).name;
                if !stride::modelled(&l.step) {
                    add(format!(
                        "the step of loop `{name}` is not modelled: it may skip the witness value"
                    ));
                } else if unrefined.is_some_and(|c| !l.step.is_unit() && !c.ground(&l.step)) {
                    add(format!(
                        "the solver gave up on the symbolic step of loop `{name}`: it may skip the witness value"
                    ));
                }
                if !l.bound_known {
                    add(format!("loop `{name}` may stop early"));
                }
            }
            if site.in_unknown_loop {
                add("inside a loop whose iteration count is unknown".into());
            }
        }
        if assumed {
            add("assumes a path that skips barriers (a branch of a uniform condition without a barrier, or a loop with barriers running zero times), not checked to be feasible".into());
        }
        for r in &self.global_reasons {
            add(r.clone());
        }
        if reasons.is_empty() {
            Certainty::Provable
        } else {
            Certainty::Possible { reasons }
        }
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

/// A short description of why a value is unknown.
pub(crate) fn describe_reason(kernel: &Kernel, r: &UnknownReason) -> String {
    let var = |v: &warpsafe_ir::VarId| kernel.var(*v).name.clone();
    match r {
        UnknownReason::Load { array } => {
            format!(
                "depends on a value loaded from `{}`",
                kernel.array(*array).name
            )
        }
        UnknownReason::Atomic { array } => format!(
            "depends on the value returned by an atomic on `{}`",
            kernel.array(*array).name
        ),
        UnknownReason::Havoc(w) => format!("depends on an unknown value ({w})"),
        UnknownReason::Call(f) => format!("depends on the result of `{f}`"),
        UnknownReason::Float => "depends on a floating-point value".into(),
        UnknownReason::ModifiedInLoop { var: v } => {
            format!("depends on `{}`, modified in a loop", var(v))
        }
        UnknownReason::AfterLoop { var: v } => format!("depends on `{}` after a loop", var(v)),
        UnknownReason::CounterMayWrap { var: v } => format!(
            "depends on `{}` where its loop is not an exact count: the counter may wrap around its type's range (past its maximum counting up, its minimum counting down)",
            var(v)
        ),
        UnknownReason::BarrierReduce => "depends on a barrier reduction".into(),
        UnknownReason::Uninitialised { var: v } => {
            format!("depends on `{}`, possibly uninitialised", var(v))
        }
        UnknownReason::LoopExit => "depends on whether a loop exited early".into(),
        UnknownReason::TooLarge { var: v } => format!(
            "depends on `{}`, whose expression grew past {} operations",
            var(v),
            crate::sym::MAX_TRACKED_NODES
        ),
    }
}

/// Ways the kernel may order accesses that v0 does not model. Races are
/// never *provable* in such a kernel (seed 004): the synchronisation might
/// rule them out.
fn unmodelled_synchronisation(kernel: &Kernel, warp_modelled: bool) -> Vec<String> {
    use warpsafe_ir::{AccessKind, BarrierKind, MemOrder, StmtKind};
    let (mut warp, mut fence, mut ordered, mut volatile) = (false, false, false, false);
    kernel.walk(&mut |stmt| match &stmt.kind {
        StmtKind::Barrier {
            kind: BarrierKind::Warp { .. } | BarrierKind::Tile { .. },
            ..
        } => warp = true,
        StmtKind::Fence { .. } => fence = true,
        StmtKind::Load { access, .. } | StmtKind::Store { access, .. } => match access {
            AccessKind::Atomic { order, .. } if *order != MemOrder::Relaxed => ordered = true,
            AccessKind::Volatile => volatile = true,
            _ => {}
        },
        StmtKind::Rmw { order, .. } | StmtKind::Cas { order, .. }
            if *order != MemOrder::Relaxed =>
        {
            ordered = true
        }
        _ => {}
    });
    let mut reasons = Vec::new();
    if warp && !warp_modelled {
        reasons.push(
            "warp and tile barriers are not modelled: they may order these accesses".to_string(),
        );
    }
    if fence {
        reasons.push(
            "fences are not modelled: with atomics they may order these accesses".to_string(),
        );
    }
    if ordered {
        reasons.push(
            "acquire/release atomics may synchronise the threads, which v0 does not model"
                .to_string(),
        );
    }
    if volatile {
        reasons.push(
            "volatile accesses may be used to synchronise the threads (not modelled)".to_string(),
        );
    }
    reasons
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
