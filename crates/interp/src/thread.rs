//! One GPU thread executing a kernel concretely, paused at every event that
//! needs shared state or other threads.
//!
//! A [`Thread`] owns only what is private to the thread: its variables, its
//! local arrays and its position (an explicit control stack, see
//! [`crate::control`]). Everything shared (global, shared and constant
//! memory, barriers, scheduling) belongs to the driver: the stateless DPOR
//! model checker of seed 000 (§4.1: it runs threads to their next event and
//! chooses what each read reads from) and the delay-bounded explorer of
//! seed 003 (§4: it picks which thread runs at each atomic or barrier).
//!
//! [`Thread::step`] runs pure statements (assignments, assumptions,
//! assertions, `printf`, local memory, control flow) until the thread
//! reaches an [`Event`], finishes, fails an assertion, violates an
//! assumption, or faults. Events that produce a value wait for the matching
//! `resume_*` call. Each executed statement and each loop test costs one
//! step of fuel; [`ThreadConfig::max_steps`] bounds the total.
//! [`ThreadConfig::loop_bound`] bounds the iterations of each loop entry and
//! [`ThreadConfig::spin_assume`] stops wasted iterations ([`crate::spin`];
//! with [`ThreadConfig::spin_yield`] the thread yields instead and may go on);
//! both end the thread with [`Step::Blocked`].
//!
//! Cloning ([`Thread`] is `Clone`) copies the variable store (O(variables)),
//! the control stack (O(nesting depth)) and one `Arc` per touched local
//! array (copied on the next write); the kernel is borrowed and the launch
//! is shared. That makes forking at every event affordable for explorers.
//!
//! Invariants: a thread never recurses on the Rust stack over the statement
//! tree or expressions; after it ends (done, assertion, infeasible, fault)
//! `step` keeps returning the same outcome; while it waits for a value
//! `step` refuses to run.

mod exec;

use crate::control::{CondOutcome, ControlStack, Next};
use crate::ctx::ThreadCtx;
use crate::eval::{Env, EvalOptions, Evaluator};
use crate::event::{Awaiting, BlockReason, Step, StmtSite};
use crate::fault::{Fault, FaultKind, ResumeError, SetupError};
use crate::liveness::Liveness;
use crate::local::LocalMemory;
use crate::quiet::QuietArrays;
use crate::spin::{EventCounts, IterSnapshot};
use crate::value::Value;
use std::sync::Arc;
use std::time::Instant;
use warpsafe_ir::{Builtin, Kernel, LoopId, ScalarTy, Span, VarId, VarKind};

/// How a thread runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadConfig {
    /// Statements plus loop tests the thread may execute before
    /// [`FaultKind::StepLimit`].
    pub max_steps: u64,
    /// Strictness of expression evaluation.
    pub eval: EvalOptions,
    /// The most times a loop's body may start per entry of the loop; one
    /// more ends the thread with [`BlockReason::LoopBound`]. `None`: no
    /// bound (only fuel).
    pub loop_bound: Option<u32>,
    /// End the thread with [`BlockReason::SpinLoop`] when it is about to
    /// repeat a wasted iteration ([`crate::spin`]).
    pub spin_assume: bool,
    /// For spin-assume: an update that writes the value it read (an
    /// exchange of the locked value, a CAS writing what it found) counts
    /// as a read. Sound only when every atomic access of the launch has a
    /// scope that includes every thread ([`crate::spin`]); the explorer
    /// decides.
    pub idle_updates_read: bool,
    /// For spin-assume: a wasted iteration may read several times, every
    /// read after the first of a quiet array ([`crate::quiet`]); without
    /// it, at most once. For model checkers, which keep a cut iteration's
    /// reads in the execution. A scheduler that resumes a yielded thread
    /// once memory changes must leave it off: a delay between two reads
    /// would let memory change before the yield unseen by the first.
    pub quiet_reads: bool,
    /// With `spin_assume`: instead of ending the thread, a wasted
    /// iteration returns [`Step::Yield`] and the thread may be stepped
    /// again (it then runs at least one more iteration before it can yield
    /// again). For a scheduler that runs other threads meanwhile (the
    /// schedule explorer, seed 003); the model checkers end the thread.
    pub spin_yield: bool,
    /// When the kernel analyses of [`Thread::new`] (spin-assume's
    /// liveness) must give up with [`SetupError::TimedOut`]; `None`: never.
    pub setup_deadline: Option<Instant>,
}

impl Default for ThreadConfig {
    fn default() -> ThreadConfig {
        ThreadConfig {
            max_steps: 1_000_000,
            eval: EvalOptions::default(),
            loop_bound: None,
            spin_assume: false,
            idle_updates_read: false,
            quiet_reads: false,
            spin_yield: false,
            setup_deadline: None,
        }
    }
}

/// How a thread ended.
#[derive(Clone, Debug, PartialEq)]
enum End {
    Done,
    Assertion { message: String, span: Span },
    Infeasible { span: Span },
    Blocked { reason: BlockReason, span: Span },
    Fault(Fault),
}

/// A value the thread waits for and where it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Wait {
    awaiting: Awaiting,
    dst: Option<VarId>,
    /// For an update (RMW or compare-and-swap), what it writes given the
    /// old value: whether it changed memory decides whether it was a read,
    /// for spin-assume.
    update: Option<Update>,
}

/// What an update writes, to tell afterwards whether it changed memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Update {
    /// An RMW of `op` with this operand.
    Rmw {
        op: warpsafe_ir::RmwOp,
        operand: Value,
    },
    /// A compare-and-swap.
    Cas { expected: Value, desired: Value },
}

impl Update {
    /// Whether the update leaves `old` in memory: a failed CAS, or an RMW
    /// or successful CAS that writes the value it read (`atomicExch(l, 1)`
    /// reading 1).
    fn leaves(self, old: Value) -> bool {
        match self {
            Update::Rmw { op, operand } => crate::rmw::apply_rmw(op, old, operand) == Ok(old),
            Update::Cas { expected, desired } => {
                !crate::rmw::cas_succeeds(old, expected) || desired == old
            }
        }
    }
}

/// The execution state of one thread over a kernel.
#[derive(Clone, Debug)]
pub struct Thread<'k> {
    kernel: &'k Kernel,
    ctx: ThreadCtx,
    config: ThreadConfig,
    vars: Vec<Option<Value>>,
    locals: LocalMemory,
    control: ControlStack<'k>,
    evaluator: Evaluator<'k>,
    wait: Option<Wait>,
    end: Option<End>,
    steps: u64,
    /// The statement executing or last executed.
    span: Span,
    /// That statement's identity (`StmtSite::default()` before the first).
    site: StmtSite,
    /// Shared-memory events so far, by effect (spin-assume).
    counts: EventCounts,
    /// Live variables at loop iterations; `None` when spin-assume is off
    /// or the analysis gave no facts.
    liveness: Option<Arc<Liveness>>,
    /// The launch's quiet arrays (spin-assume; empty when it is off).
    quiet: Arc<QuietArrays>,
}

/// Variables and builtins as [`Env`] sees them.
struct ThreadEnv<'a> {
    kernel: &'a Kernel,
    vars: &'a [Option<Value>],
    ctx: &'a ThreadCtx,
    options: EvalOptions,
}

impl Env for ThreadEnv<'_> {
    fn var(&self, id: VarId) -> Result<Value, FaultKind> {
        match self.vars.get(id.0 as usize) {
            Some(Some(v)) => Ok(*v),
            Some(None)
                if self.kernel.vars.get(id.0 as usize).map(|v| v.kind) == Some(VarKind::Param) =>
            {
                Err(FaultKind::UnboundParam(id))
            }
            Some(None) => Err(FaultKind::UninitialisedVariable(id)),
            None => Err(FaultKind::UnknownVar(id)),
        }
    }

    fn builtin(&self, b: Builtin) -> Value {
        self.ctx.builtin(b)
    }

    fn options(&self) -> EvalOptions {
        self.options
    }
}

impl<'k> Thread<'k> {
    /// A thread at the start of `kernel`. Scalar parameters take their values
    /// from the launch (which must match the parameters' types); a parameter
    /// without a value faults with [`FaultKind::UnboundParam`] when read.
    pub fn new(
        kernel: &'k Kernel,
        ctx: ThreadCtx,
        config: ThreadConfig,
    ) -> Result<Thread<'k>, SetupError> {
        let liveness = if config.spin_assume {
            Liveness::analyse(kernel, config.setup_deadline)
                .map_err(|_| SetupError::TimedOut)?
                .map(Arc::new)
        } else {
            None
        };
        let quiet = Arc::new(Thread::quiet_arrays(kernel, &ctx, config));
        Thread::start(kernel, ctx, config, liveness, quiet)
    }

    /// Spin-assume's quiet arrays of the launch of `ctx` (none unless
    /// spin-assume and [`ThreadConfig::quiet_reads`] are on).
    fn quiet_arrays(kernel: &Kernel, ctx: &ThreadCtx, config: ThreadConfig) -> QuietArrays {
        if config.spin_assume && config.quiet_reads {
            QuietArrays::of(kernel, &ctx.launch)
        } else {
            QuietArrays::default()
        }
    }

    /// Another thread of the same kernel and configuration at the start of
    /// the kernel, for `ctx`: as [`Thread::new`], sharing this thread's
    /// kernel analyses (spin-assume's liveness, and its quiet arrays when
    /// `ctx` has a launch of the same shape) instead of redoing them.
    pub fn sibling(&self, ctx: ThreadCtx) -> Result<Thread<'k>, SetupError> {
        let (mine, theirs) = (&self.ctx.launch, &ctx.launch);
        let quiet = if mine.blocks() == theirs.blocks() && mine.threads() == theirs.threads() {
            self.quiet.clone()
        } else {
            Arc::new(Thread::quiet_arrays(self.kernel, &ctx, self.config))
        };
        Thread::start(self.kernel, ctx, self.config, self.liveness.clone(), quiet)
    }

    fn start(
        kernel: &'k Kernel,
        ctx: ThreadCtx,
        config: ThreadConfig,
        liveness: Option<Arc<Liveness>>,
        quiet: Arc<QuietArrays>,
    ) -> Result<Thread<'k>, SetupError> {
        if !ctx.in_launch() {
            let l = &ctx.launch;
            let (what, index, dim) = if (0..3).any(|k| ctx.thread_idx[k] >= l.block_dim[k]) {
                ("thread", ctx.thread_idx, l.block_dim)
            } else {
                ("block", ctx.block_idx, l.grid_dim)
            };
            return Err(SetupError::OutsideLaunch { what, index, dim });
        }
        let mut vars = vec![None; kernel.vars.len()];
        for (&id, &value) in &ctx.launch.params {
            let var = kernel
                .vars
                .get(id.0 as usize)
                .filter(|v| v.kind == VarKind::Param)
                .ok_or(SetupError::NotAParam(id))?;
            if var.ty != value.ty() {
                return Err(SetupError::ParamType {
                    var: id,
                    expected: var.ty,
                    got: value.ty(),
                });
            }
            vars[id.0 as usize] = Some(value);
        }
        Ok(Thread {
            kernel,
            ctx,
            config,
            vars,
            locals: LocalMemory::default(),
            control: ControlStack::new(&kernel.body, config.loop_bound.map(|k| k.max(1))),
            evaluator: Evaluator::default(),
            wait: None,
            end: None,
            steps: 0,
            span: kernel.span,
            site: StmtSite::default(),
            counts: EventCounts::default(),
            liveness,
            quiet,
        })
    }

    pub fn kernel(&self) -> &'k Kernel {
        self.kernel
    }

    pub fn ctx(&self) -> &ThreadCtx {
        &self.ctx
    }

    pub fn config(&self) -> &ThreadConfig {
        &self.config
    }

    /// Steps of fuel used so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The span of the statement executing or executed last (the kernel's
    /// before the first).
    pub fn span(&self) -> Span {
        self.span
    }

    /// Frames on the control stack (how deeply nested the thread is).
    pub fn depth(&self) -> usize {
        self.control.depth()
    }

    /// What the thread waits for, if it waits.
    pub fn awaiting(&self) -> Option<Awaiting> {
        self.wait.map(|w| w.awaiting)
    }

    /// Whether the thread has ended (any way); `step` then repeats the end.
    pub fn is_finished(&self) -> bool {
        self.end.is_some()
    }

    /// The current value of a variable.
    pub fn var(&self, id: VarId) -> Option<Value> {
        self.vars.get(id.0 as usize).copied().flatten()
    }

    /// The current value of a slot of a local array.
    pub fn local(&self, array: warpsafe_ir::ArrayId, index: u64) -> Option<Value> {
        self.locals.get(array, index)
    }

    /// Runs the thread to its next event or its end.
    pub fn step(&mut self) -> Result<Step, Fault> {
        if let Some(end) = &self.end {
            return match end {
                End::Done => Ok(Step::Done),
                End::Assertion { message, span } => Ok(Step::AssertionFailed {
                    message: message.clone(),
                    span: *span,
                }),
                End::Infeasible { span } => Ok(Step::Infeasible { span: *span }),
                End::Blocked { reason, span } => Ok(Step::Blocked {
                    reason: *reason,
                    span: *span,
                }),
                End::Fault(f) => Err(f.clone()),
            };
        }
        if let Some(w) = self.wait {
            return Err(Fault::new(
                FaultKind::MissingResume(w.awaiting.name()),
                self.span,
            ));
        }
        let result = self.run();
        self.end = match &result {
            Ok(Step::Event(_) | Step::Yield { .. }) => None,
            Ok(Step::Done) => Some(End::Done),
            Ok(Step::AssertionFailed { message, span }) => Some(End::Assertion {
                message: message.clone(),
                span: *span,
            }),
            Ok(Step::Infeasible { span }) => Some(End::Infeasible { span: *span }),
            Ok(Step::Blocked { reason, span }) => Some(End::Blocked {
                reason: *reason,
                span: *span,
            }),
            Err(f) => Some(End::Fault(f.clone())),
        };
        result
    }

    /// Answers a `Load` event with the value read (of the load's type).
    pub fn resume_load(&mut self, value: Value) -> Result<(), ResumeError> {
        self.resume("a loaded value", value, |a| match a {
            Awaiting::Load { ty } => Some(ty),
            _ => None,
        })
    }

    /// Answers an `Rmw` event with the old value of the slot.
    pub fn resume_rmw(&mut self, old: Value) -> Result<(), ResumeError> {
        let update = self.wait.and_then(|w| w.update);
        self.resume("the old value of an atomic", old, |a| match a {
            Awaiting::Rmw { ty } => Some(ty),
            _ => None,
        })?;
        self.count_update(update, old);
        Ok(())
    }

    /// Answers a `Cas` event with the old value of the slot.
    pub fn resume_cas(&mut self, old: Value) -> Result<(), ResumeError> {
        let update = self.wait.and_then(|w| w.update);
        self.resume("the old value of a compare-and-swap", old, |a| match a {
            Awaiting::Cas { ty } => Some(ty),
            _ => None,
        })?;
        self.count_update(update, old);
        Ok(())
    }

    /// An update was counted as a read when it was issued; one that
    /// changed memory is an effect (see [`crate::spin`] for when one that
    /// did not may stay a read).
    fn count_update(&mut self, update: Option<Update>, old: Value) {
        let read = match update {
            Some(u) if self.config.idle_updates_read => u.leaves(old),
            // A failed CAS is a read whatever the scopes (seed 000 §3).
            Some(Update::Cas { expected, .. }) => !crate::rmw::cas_succeeds(old, expected),
            // Every update records what it writes; without that record it
            // is an effect (spin-assume then cuts nothing).
            Some(Update::Rmw { .. }) | None => false,
        };
        if !read {
            self.counts.reads -= 1;
            self.counts.effects += 1;
        }
    }

    /// Answers a `Havoc` event with any value of the variable's type.
    pub fn resume_havoc(&mut self, value: Value) -> Result<(), ResumeError> {
        self.resume("an arbitrary value", value, |a| match a {
            Awaiting::Havoc { ty } => Some(ty),
            _ => None,
        })
    }

    /// Answers a reducing `Barrier` event with the reduction over the
    /// participating threads (see [`crate::reduce_barrier`]).
    pub fn resume_barrier(&mut self, result: i32) -> Result<(), ResumeError> {
        self.resume("a barrier reduction", Value::I32(result), |a| match a {
            Awaiting::BarrierReduction => Some(ScalarTy::I32),
            _ => None,
        })
    }

    fn resume(
        &mut self,
        got: &'static str,
        value: Value,
        expects: impl Fn(Awaiting) -> Option<ScalarTy>,
    ) -> Result<(), ResumeError> {
        let w = self.wait.ok_or(ResumeError::NotWaiting)?;
        let ty = expects(w.awaiting).ok_or(ResumeError::WrongResume {
            waiting: w.awaiting.name(),
            got,
        })?;
        if value.ty() != ty {
            return Err(ResumeError::TypeMismatch {
                expected: ty,
                got: value.ty(),
            });
        }
        self.wait = None;
        if let Some(dst) = w.dst {
            if let Err(f) = self.set(dst, value) {
                // Reported by the next `step`.
                self.end = Some(End::Fault(f));
            }
        }
        Ok(())
    }

    /// The loop of `step`: pure statements until an event or the end.
    fn run(&mut self) -> Result<Step, Fault> {
        loop {
            match self.control.next() {
                Next::Done => return Ok(Step::Done),
                Next::Cond { cond, span } => {
                    self.span = span;
                    self.burn()?;
                    let holds = self.eval(cond)?.is_true();
                    if holds {
                        if let Some((frame, id, span)) = self.control.back_edge_if_true() {
                            if let Some(step) = self.iteration(frame, id, true, span) {
                                return Ok(step);
                            }
                        }
                    }
                    if let CondOutcome::Bound { bound, span } = self.control.cond(holds) {
                        return Ok(Step::Blocked {
                            reason: BlockReason::LoopBound { bound },
                            span,
                        });
                    }
                }
                Next::Iteration {
                    frame,
                    id,
                    back_edge,
                    span,
                } => {
                    if let Some(step) = self.iteration(frame, id, back_edge, span) {
                        return Ok(step);
                    }
                }
                Next::Stmt(stmt) => {
                    self.span = stmt.span;
                    self.site = StmtSite::of(stmt);
                    self.burn()?;
                    if let Some(step) = self.exec(stmt)? {
                        return Ok(step);
                    }
                }
            }
        }
    }

    /// An iteration of loop `id` (frame `frame`) starts: after a wasted
    /// one the thread blocks (spin-assume), otherwise the thread is
    /// remembered as the new iteration's start.
    fn iteration(&mut self, frame: usize, id: LoopId, back_edge: bool, span: Span) -> Option<Step> {
        let liveness = self.liveness.as_ref()?;
        if liveness.never_wasted(id) {
            return None;
        }
        let live = liveness.at_iteration(id);
        let slot = self.control.snapshot_mut(frame)?;
        let wasted = match slot.as_ref() {
            Some(s) if back_edge => s.wasted(live, &self.vars, &self.locals, self.counts),
            _ => None,
        };
        if let Some(reads) = wasted {
            let reads = u32::try_from(reads).unwrap_or(u32::MAX);
            if self.config.spin_yield {
                // No snapshot: the next test of this back edge (a
                // `do`-`while` loop asks again) lets the iteration start.
                *slot = None;
                return Some(Step::Yield { span, reads });
            }
            return Some(Step::Blocked {
                reason: BlockReason::SpinLoop { reads },
                span,
            });
        }
        match slot {
            Some(s) => s.retake(live, &self.vars, &self.locals, self.counts),
            None => {
                *slot = Some(Box::new(IterSnapshot::take(
                    live,
                    &self.vars,
                    &self.locals,
                    self.counts,
                )))
            }
        }
        None
    }

    fn burn(&mut self) -> Result<(), Fault> {
        if self.steps >= self.config.max_steps {
            return Err(self.fault(FaultKind::StepLimit {
                limit: self.config.max_steps,
            }));
        }
        self.steps += 1;
        Ok(())
    }
}
