//! The v0 data-race check: two symbolic threads per pair of access sites, one
//! SMT query each (seeds 001 and 002), restricted to kernels whose block and
//! grid barriers all sit at the top level of the protocol.
//!
//! - **Phases.** The kernel protocol's top-level barriers cut it into
//!   phases; a `Sync` of a block or the grid nested in `If`/`For`/`Loop`
//!   makes the verdict UNKNOWN (barrier aligning, seed 002 §4.1, is not
//!   implemented yet). Warp and tile syncs order nothing here.
//! - **Pairs.** For every array that is neither local nor constant, every
//!   pair of access sites (a site with itself included) with at least one
//!   write and not both atomic (at a scope covering both threads) is
//!   checked for two threads of one block when both sites are in the same
//!   block phase, and, for global arrays, for two threads of different
//!   blocks when both are in the same grid phase (only grid syncs order
//!   blocks).
//! - **Query.** Both threads' path guards, enclosing `For` variables as
//!   fresh constants with `lo <= v < hi` (the step is ignored), indices
//!   equal, ids within the launch (and CUDA's limits, and concrete dims when
//!   known), distinct threads, same or different block, and the kernel's
//!   unconditional preconditions for both threads. `Sat` is a race; only a
//!   clean `unsat` rules the pair out.

use std::collections::HashSet;
use std::time::Duration;

use crate::encode::{resize, sort_of, EncodeError, Encoder, Shared, ThreadVars};
use crate::infer::infer;
use crate::protocol::{Access, AccessMode, ForLoop, KernelProtocol, Proto, SyncKind};
use crate::sym::{Sym, UnknownReason};
use crate::verdict::{
    Certainty, KernelReport, LoopValue, Race, RaceAccess, RaceScope, ThreadId, Verdict, Witness,
};
use warpsafe_ir::{ArrayOrigin, Kernel, MemSpace, ScalarTy, Scope, Span, VarKind};
use warpsafe_smt::{term, CheckResult, SmtError, Solver, SolverConfig, Sort, Term, Transcript};

/// The reason given for kernels v0 cannot check because of a nested barrier.
pub const ALIGNING_REASON: &str =
    "barrier inside a loop or conditional: barrier aligning (seed 002 §4.1) is not implemented yet";

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
}

impl Default for RaceConfig {
    fn default() -> RaceConfig {
        RaceConfig {
            solver: SolverConfig::z3().with_logic("QF_BV"),
            record_smt: false,
            params: Vec::new(),
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
}

/// Infers the kernel's protocol and checks it for data races.
pub fn check_kernel(kernel: &Kernel, config: &RaceConfig) -> KernelReport {
    match infer(kernel) {
        Ok(kp) => check_protocol(kernel, &kp, config),
        Err(e) => KernelReport {
            kernel: kernel.name.clone(),
            verdict: unknown(format!("no protocol: {e}"), None),
            notes: Vec::new(),
            transcript: None,
        },
    }
}

/// Checks an inferred protocol of `kernel` for data races.
pub fn check_protocol(kernel: &Kernel, kp: &KernelProtocol, config: &RaceConfig) -> KernelReport {
    let mut notes = Vec::new();
    if !kp.asserts.is_empty() {
        notes.push(format!(
            "assertions not checked ({} assert statement(s))",
            kp.asserts.len()
        ));
    }
    let mut report = KernelReport {
        kernel: kernel.name.clone(),
        verdict: Verdict::Drf,
        notes,
        transcript: None,
    };
    let sites = match collect_sites(&kp.body) {
        Ok(s) => s,
        Err((reason, span)) => {
            report.verdict = unknown(reason, Some(span));
            return report;
        }
    };
    if let Some(v) = unsupported(kernel) {
        report.verdict = v;
        return report;
    }
    let pairs = candidate_pairs(kernel, &sites);
    if pairs.is_empty() {
        return report;
    }
    let mut solver_config = config.solver.clone();
    if config.record_smt {
        let t = Transcript::new();
        report.transcript = Some(t.clone());
        solver_config = solver_config.with_transcript(t);
    }
    let mut check = Check {
        kernel,
        sites: &sites,
        races: Vec::new(),
        inconclusive: Vec::new(),
        global_reasons: unmodelled_synchronisation(kernel),
        queries: 0,
        param_values: &config.params,
    };
    let outcome = check.run(solver_config, kp, &pairs);
    let Check {
        races,
        inconclusive,
        ..
    } = check;
    for (a, b, msg) in &inconclusive {
        report.notes.push(format!(
            "inconclusive query ({} / {}): {msg}",
            describe_site(kernel, a),
            describe_site(kernel, b)
        ));
    }
    report.verdict = match outcome {
        Err(e) if races.is_empty() => unknown(format!("solver failed: {e}"), None),
        Err(e) => {
            report
                .notes
                .push(format!("solver failed, other races may be missing: {e}"));
            Verdict::Racy(races)
        }
        Ok(()) if !races.is_empty() => {
            if !inconclusive.is_empty() {
                report
                    .notes
                    .push("some queries were inconclusive: other races may be missing".into());
            }
            Verdict::Racy(races)
        }
        Ok(()) => match inconclusive.first() {
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
    report
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
    if let Some(b) = launch.block {
        let ok = (0..3).all(|d| b[d] >= 1 && b[d] <= BLOCK_LIMITS[d])
            && b.iter().product::<u64>() <= MAX_THREADS_PER_BLOCK;
        if !ok {
            return Some(unknown(
                format!("blockDim {b:?} is outside CUDA's limits"),
                launch.span,
            ));
        }
    }
    if let Some(g) = launch.grid {
        if !(0..3).all(|d| g[d] >= 1 && g[d] <= GRID_LIMITS[d]) {
            return Some(unknown(
                format!("gridDim {g:?} is outside CUDA's limits"),
                launch.span,
            ));
        }
    }
    None
}

/// CUDA's limits on launch dimensions (every compute capability >= 3.0).
const BLOCK_LIMITS: [u64; 3] = [1024, 1024, 64];
const MAX_THREADS_PER_BLOCK: u64 = 1024;
const GRID_LIMITS: [u64; 3] = [(1 << 31) - 1, 65535, 65535];

/// One access with its context.
struct Site<'p> {
    access: &'p Access,
    /// Conditions of the enclosing `If`s (negated in `else` branches).
    guards: Vec<Sym>,
    /// Enclosing `For` loops, outermost first.
    loops: Vec<&'p ForLoop>,
    /// Inside a `Loop` (unknown iteration count).
    in_unknown_loop: bool,
    /// Phases separated by block (and grid) barriers.
    block_phase: usize,
    /// Phases separated by grid barriers.
    grid_phase: usize,
}

fn collect_sites(body: &Proto) -> Result<Vec<Site<'_>>, (String, Span)> {
    let items: Vec<&Proto> = match body {
        Proto::Seq(items) => items.iter().collect(),
        p => vec![p],
    };
    let (mut block_phase, mut grid_phase) = (0, 0);
    let mut out = Vec::new();
    for item in items {
        match item {
            Proto::Sync {
                kind: SyncKind::Block,
                ..
            } => block_phase += 1,
            Proto::Sync {
                kind: SyncKind::Grid,
                ..
            } => {
                block_phase += 1;
                grid_phase += 1;
            }
            p => {
                let mut walker = Walker {
                    guards: Vec::new(),
                    loops: Vec::new(),
                    in_unknown_loop: false,
                    block_phase,
                    grid_phase,
                    out: &mut out,
                };
                walker.walk(p)?;
            }
        }
    }
    Ok(out)
}

struct Walker<'p, 'o> {
    guards: Vec<Sym>,
    loops: Vec<&'p ForLoop>,
    in_unknown_loop: bool,
    block_phase: usize,
    grid_phase: usize,
    out: &'o mut Vec<Site<'p>>,
}

impl<'p> Walker<'p, '_> {
    fn walk(&mut self, p: &'p Proto) -> Result<(), (String, Span)> {
        match p {
            Proto::Skip => {}
            Proto::Access(a) => self.out.push(Site {
                access: a,
                guards: self.guards.clone(),
                loops: self.loops.clone(),
                in_unknown_loop: self.in_unknown_loop,
                block_phase: self.block_phase,
                grid_phase: self.grid_phase,
            }),
            Proto::Sync { kind, span } => match kind {
                SyncKind::Block | SyncKind::Grid => {
                    return Err((ALIGNING_REASON.to_owned(), *span));
                }
                // Orders nothing in v0: a sound over-approximation.
                SyncKind::Warp { .. } | SyncKind::Tile { .. } => {}
            },
            Proto::Seq(items) => {
                for p in items {
                    self.walk(p)?;
                }
            }
            Proto::If { cond, then_, else_ } => {
                self.guards.push(cond.clone());
                self.walk(then_)?;
                self.guards.pop();
                self.guards.push(Sym::negate(cond.clone()));
                self.walk(else_)?;
                self.guards.pop();
            }
            Proto::For(l) => {
                self.loops.push(l);
                self.walk(&l.body)?;
                self.loops.pop();
            }
            Proto::Loop { body, .. } => {
                let outer = self.in_unknown_loop;
                self.in_unknown_loop = true;
                self.walk(body)?;
                self.in_unknown_loop = outer;
            }
        }
        Ok(())
    }
}

/// Whether an atomic access is atomic with respect to every thread of
/// `scope` (a block, or the whole device).
fn atomic_at(a: &Access, cross_block: bool) -> bool {
    a.atomic
        && match a.scope {
            Some(Scope::Device | Scope::System) => true,
            Some(Scope::Block | Scope::Cluster) => !cross_block,
            Some(Scope::Thread) | None => false,
        }
}

/// The pairs of sites `(i, j)`, `i <= j`, that may conflict, with the
/// thread placements to check.
fn candidate_pairs(kernel: &Kernel, sites: &[Site<'_>]) -> Vec<(usize, usize, Vec<RaceScope>)> {
    let mut out = Vec::new();
    for i in 0..sites.len() {
        for j in i..sites.len() {
            let (a, b) = (sites[i].access, sites[j].access);
            if a.array != b.array || (a.mode == AccessMode::Read && b.mode == AccessMode::Read) {
                continue;
            }
            let space = kernel.array(a.array).space;
            if matches!(space, MemSpace::Local | MemSpace::Constant) {
                continue;
            }
            let mut scopes = Vec::new();
            if sites[i].block_phase == sites[j].block_phase
                && !(atomic_at(a, false) && atomic_at(b, false))
            {
                scopes.push(RaceScope::SameBlock);
            }
            if space == MemSpace::Global
                && sites[i].grid_phase == sites[j].grid_phase
                && !(atomic_at(a, true) && atomic_at(b, true))
            {
                scopes.push(RaceScope::CrossBlock);
            }
            if !scopes.is_empty() {
                out.push((i, j, scopes));
            }
        }
    }
    out
}

/// A failure that ends the check: the solver is unusable or the encoding
/// failed.
#[derive(Debug)]
enum Fatal {
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

struct Check<'k, 'p> {
    kernel: &'k Kernel,
    sites: &'p [Site<'p>],
    races: Vec<Race>,
    inconclusive: Vec<(Access, Access, String)>,
    /// Approximations that affect every race (dropped preconditions).
    global_reasons: Vec<String>,
    queries: usize,
    /// Concrete values of scalar parameters, by name.
    param_values: &'k [(String, i128)],
}

/// The constants every query shares.
struct Globals {
    shared: Shared,
    threads: [ThreadVars; 2],
    /// Scalar parameters: name, type, constant.
    params: Vec<(String, ScalarTy, Term)>,
}

/// One side of a query, encoded.
struct Side {
    constraints: Vec<Term>,
    index: Term,
    index_ty: ScalarTy,
    loops: Vec<(String, ScalarTy, Term)>,
    reasons: Vec<UnknownReason>,
}

impl<'p> Check<'_, 'p> {
    fn run(
        &mut self,
        config: SolverConfig,
        kp: &KernelProtocol,
        pairs: &[(usize, usize, Vec<RaceScope>)],
    ) -> Result<(), Fatal> {
        let mut solver = Solver::start(config)?;
        let globals = self.declare_globals(&mut solver, kp)?;
        let mut racy_spans: HashSet<(Span, Span)> = HashSet::new();
        for (i, j, scopes) in pairs {
            let (a, b) = (&self.sites[*i], &self.sites[*j]);
            let key = (a.access.span, b.access.span);
            if racy_spans.contains(&key) || racy_spans.contains(&(key.1, key.0)) {
                continue;
            }
            for scope in scopes {
                if let Some(race) = self.query(&mut solver, &globals, a, b, *scope)? {
                    racy_spans.insert(key);
                    self.races.push(race);
                    break;
                }
            }
        }
        Ok(())
    }

    fn declare_globals(
        &mut self,
        solver: &mut Solver,
        kp: &KernelProtocol,
    ) -> Result<Globals, Fatal> {
        let u32s = Sort::BitVec(32);
        let dims = |solver: &mut Solver, name: &str| -> Result<[Term; 3], SmtError> {
            Ok([
                solver.declare_const(&format!("{name}_x"), &u32s)?,
                solver.declare_const(&format!("{name}_y"), &u32s)?,
                solver.declare_const(&format!("{name}_z"), &u32s)?,
            ])
        };
        let block_dim = dims(solver, "blockDim")?;
        let grid_dim = dims(solver, "gridDim")?;
        let threads = [
            ThreadVars {
                thread_idx: dims(solver, "t1_threadIdx")?,
                block_idx: dims(solver, "t1_blockIdx")?,
            },
            ThreadVars {
                thread_idx: dims(solver, "t2_threadIdx")?,
                block_idx: dims(solver, "t2_blockIdx")?,
            },
        ];
        let mut params = Vec::new();
        let mut param_map = std::collections::HashMap::new();
        for v in &self.kernel.vars {
            if v.kind != VarKind::Param || v.ty.is_float() {
                continue;
            }
            let c = solver.declare_const(&format!("param{}", v.id.0), &sort_of(v.ty)?)?;
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
                solver.assert(&term::eq(c.clone(), value))?;
            }
            param_map.insert(v.id, c.clone());
            params.push((v.name.clone(), v.ty, c));
        }
        // Launch dimensions: CUDA's limits, and the concrete values if known.
        let u = |v: u64| term::bv(u128::from(v), 32);
        let launch = &self.kernel.launch;
        for d in 0..3 {
            solver.assert(&term::bvuge(block_dim[d].clone(), u(1)))?;
            solver.assert(&term::bvule(block_dim[d].clone(), u(BLOCK_LIMITS[d])))?;
            solver.assert(&term::bvuge(grid_dim[d].clone(), u(1)))?;
            solver.assert(&term::bvule(grid_dim[d].clone(), u(GRID_LIMITS[d])))?;
            if let Some(b) = launch.block {
                solver.assert(&term::eq(block_dim[d].clone(), u(b[d])))?;
            }
            if let Some(g) = launch.grid {
                solver.assert(&term::eq(grid_dim[d].clone(), u(g[d])))?;
            }
            for t in &threads {
                solver.assert(&term::bvult(t.thread_idx[d].clone(), block_dim[d].clone()))?;
                solver.assert(&term::bvult(t.block_idx[d].clone(), grid_dim[d].clone()))?;
            }
        }
        let wide = |t: &Term| term::zero_extend(32, t.clone());
        let threads_per_block = term::bvmul(
            term::bvmul(wide(&block_dim[0]), wide(&block_dim[1])),
            wide(&block_dim[2]),
        );
        solver.assert(&term::bvule(
            threads_per_block,
            term::bv(u128::from(MAX_THREADS_PER_BLOCK), 64),
        ))?;
        let globals = Globals {
            shared: Shared {
                block_dim,
                grid_dim,
                params: param_map,
            },
            threads,
            params,
        };
        // Unconditional preconditions, for both threads.
        let mut dropped = 0;
        let mut approximate = false;
        for (k, c) in kp.preconditions.iter().enumerate() {
            if !c.guard.is_true() || c.in_loop {
                dropped += 1;
                continue;
            }
            let mut encoded = Vec::new();
            for (n, t) in globals.threads.iter().enumerate() {
                let mut e = Encoder::new(&globals.shared, t, &format!("pre{k}t{}", n + 1));
                if let Ok(term) = e.encode_as(&c.cond, ScalarTy::Bool) {
                    approximate |= !e.approximations.is_empty();
                    encoded.push((e.decls, term));
                }
            }
            if encoded.len() != 2 {
                // Not assuming a precondition over-approximates.
                dropped += 1;
                continue;
            }
            for (decls, cond) in encoded {
                for (name, sort) in &decls {
                    solver.declare_const(name, sort)?;
                }
                solver.assert(&cond)?;
            }
        }
        if dropped > 0 {
            self.global_reasons.push(format!(
                "{dropped} precondition(s) under a condition or in a loop were not assumed"
            ));
        }
        if approximate {
            self.global_reasons
                .push("a precondition depends on unknown values".into());
        }
        Ok(globals)
    }

    fn encode_side(
        &self,
        globals: &Globals,
        thread: usize,
        prefix: &str,
        site: &Site<'_>,
    ) -> Result<(Side, Vec<(String, Sort)>), EncodeError> {
        let mut e = Encoder::new(&globals.shared, &globals.threads[thread], prefix);
        let mut constraints = Vec::new();
        let mut loops = Vec::new();
        for l in &site.loops {
            let lo = e.encode_as(&l.lo, l.ty)?;
            let hi = e.encode_as(&l.hi, l.ty)?;
            let v = e.fresh("loop", sort_of(l.ty)?);
            e.loop_vars.insert(l.loop_id, v.clone());
            if l.ty.is_signed() {
                constraints.push(term::bvsle(lo, v.clone()));
                constraints.push(term::bvslt(v.clone(), hi));
            } else {
                constraints.push(term::bvule(lo, v.clone()));
                constraints.push(term::bvult(v.clone(), hi));
            }
            loops.push((self.kernel.var(l.var).name.clone(), l.ty, v));
        }
        for g in &site.guards {
            constraints.push(e.encode_as(g, ScalarTy::Bool)?);
        }
        let mut index_ty = site.access.index.ty();
        if index_ty == ScalarTy::Bool {
            index_ty = ScalarTy::U8;
        }
        let index = e.encode_as(&site.access.index, index_ty)?;
        let side = Side {
            constraints,
            index,
            index_ty,
            loops,
            reasons: e.approximations,
        };
        Ok((side, e.decls))
    }

    fn query(
        &mut self,
        solver: &mut Solver,
        globals: &Globals,
        a: &'p Site<'p>,
        b: &'p Site<'p>,
        scope: RaceScope,
    ) -> Result<Option<Race>, Fatal> {
        let n = self.queries;
        self.queries += 1;
        let (s1, d1) = self.encode_side(globals, 0, &format!("q{n}a"), a)?;
        let (s2, d2) = self.encode_side(globals, 1, &format!("q{n}b"), b)?;
        solver.push()?;
        for (name, sort) in d1.iter().chain(&d2) {
            solver.declare_const(name, sort)?;
        }
        for c in s1.constraints.iter().chain(&s2.constraints) {
            solver.assert(c)?;
        }
        let width = s1.index_ty.bits().max(s2.index_ty.bits()) + 1;
        let i1 = resize(s1.index.clone(), s1.index_ty, width);
        let i2 = resize(s2.index.clone(), s2.index_ty, width);
        solver.assert(&term::eq(i1.clone(), i2))?;
        let [t1, t2] = &globals.threads;
        let same_block =
            term::and((0..3).map(|d| term::eq(t1.block_idx[d].clone(), t2.block_idx[d].clone())));
        let same_thread =
            term::and((0..3).map(|d| term::eq(t1.thread_idx[d].clone(), t2.thread_idx[d].clone())));
        solver.assert(&term::not(term::and([same_block.clone(), same_thread])))?;
        solver.assert(&match scope {
            RaceScope::SameBlock => same_block,
            RaceScope::CrossBlock => term::not(same_block),
        })?;
        let result = solver.check()?;
        let race = match result {
            CheckResult::Unsat => None,
            CheckResult::Unknown(msg) => {
                self.inconclusive
                    .push((a.access.clone(), b.access.clone(), msg));
                None
            }
            CheckResult::Sat => {
                let witness = self.witness(solver, globals, &s1, &s2, i1)?;
                Some(Race {
                    array: a.access.array,
                    array_name: self.kernel.array(a.access.array).name.clone(),
                    space: self.kernel.array(a.access.array).space,
                    first: race_access(a.access),
                    second: race_access(b.access),
                    scope,
                    certainty: self.certainty(a, b, &s1, &s2),
                    witness: Some(witness),
                })
            }
        };
        solver.pop()?;
        Ok(race)
    }

    fn witness(
        &self,
        solver: &mut Solver,
        globals: &Globals,
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
        terms.extend(s1.loops.iter().chain(&s2.loops).map(|l| l.2.clone()));
        terms.push(index);
        let values = solver.get_values(&terms)?;
        let unsigned = |i: usize| match values[i] {
            warpsafe_smt::Value::BitVec { value, .. } => value as u64,
            _ => 0,
        };
        let typed = |i: usize, ty: ScalarTy| match (&values[i], ty.is_signed()) {
            (v @ warpsafe_smt::Value::BitVec { .. }, true) => v.as_signed().unwrap_or(0),
            (warpsafe_smt::Value::BitVec { value, .. }, false) => *value as i128,
            (warpsafe_smt::Value::Bool(b), _) => i128::from(*b),
            _ => 0,
        };
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
        let launch = &self.kernel.launch;
        let mut at = 18;
        let params = globals
            .params
            .iter()
            .enumerate()
            .map(|(k, (name, ty, _))| (name.clone(), typed(at + k, *ty)))
            .collect();
        at += globals.params.len();
        let mut loop_vars = Vec::new();
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

    fn certainty(&self, a: &Site<'_>, b: &Site<'_>, s1: &Side, s2: &Side) -> Certainty {
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
            for l in &site.loops {
                let name = &self.kernel.var(l.var).name;
                if !l.step.is_unit() {
                    add(format!(
                        "the step of loop `{name}` is not modelled: it may skip the witness value"
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

fn race_access(a: &Access) -> RaceAccess {
    RaceAccess {
        span: a.span,
        mode: a.mode,
        atomic: a.atomic,
    }
}

/// A short description of why a value is unknown.
fn describe_reason(kernel: &Kernel, r: &UnknownReason) -> String {
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
        UnknownReason::BarrierReduce => "depends on a barrier reduction".into(),
        UnknownReason::Uninitialised { var: v } => {
            format!("depends on `{}`, possibly uninitialised", var(v))
        }
        UnknownReason::LoopExit => "depends on whether a loop exited early".into(),
    }
}

/// Ways the kernel may order accesses that v0 does not model. Races are
/// never *provable* in such a kernel (seed 004): the synchronisation might
/// rule them out.
fn unmodelled_synchronisation(kernel: &Kernel) -> Vec<String> {
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
    if warp {
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
