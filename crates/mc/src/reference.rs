//! The brute-force reference enumerator: every SRC11-consistent execution
//! of one concrete launch of a kernel.
//!
//! # Algorithm
//!
//! A *state* is a partial execution graph plus, for every thread, the
//! interpreter paused at its next event (or finished, or blocked at a
//! barrier). From a state, every thread that has a next event may perform
//! it, in every way the model allows:
//!
//! - a **read** reads from *any* write to its location already in the
//!   graph, or from the initial value (one successor per choice);
//! - a **write** is inserted at *any* position of its location's `co`;
//! - an **RMW/CAS** reads from any write, and is placed in `co` immediately
//!   after it (the only placement (Atomicity) allows); a CAS that fails is a
//!   read with the failure order;
//! - fences add their event; a thread arriving at a **barrier** adds its
//!   barrier event and blocks; the last participant to arrive releases all
//!   of them (reducing barriers get their reduction);
//! - unknown values (`Havoc`) are not supported (an error);
//! - a thread stopped in a loop (loop bound, spin-assume) moves no more;
//!   a complete state with such a thread is reported as a cut execution.
//!
//! Every successor graph is checked with [`crate::consistency`]; an
//! inconsistent one is dropped together with everything below it, since
//! every relation of SRC11 only grows when events (`po`-maximal), `rf`
//! edges into the new event and `co` insertions are added, so an axiom
//! violated by a prefix stays violated. A successor whose graph was seen
//! before is dropped too: a thread is deterministic given what its reads
//! return, so the graph determines the whole state (memoisation; a thread
//! that faulted inside an atomic, which adds no event, is part of the key).
//! A state where no thread can move is a complete execution.
//!
//! # Completeness
//!
//! Let `G` be a consistent complete execution of the launch. By
//! (No-Thin-Air), `po ∪ rf ∪ bar` is acyclic, so it has a linearisation
//! `e₁ … eₙ` in which every read comes after the write it reads from and
//! every event after a barrier comes after all participants' arrivals at
//! it. Following this order, the enumerator can perform each `eᵢ` by its
//! thread (the thread's earlier events were performed and returned the same
//! values as in `G`, so the interpreter produces exactly `eᵢ`), pick `rf(eᵢ)`
//! (already in the graph), and insert writes into `co` at the position their
//! restriction of `G`'s `co` dictates (any total order is built by
//! insertions; updates sit right after their source in `G` by
//! (Atomicity)). Every prefix is a restriction of `G` and hence consistent
//! (its relations are subsets of `G`'s), so it is not pruned. Memoisation
//! only skips states already explored. Hence `G` is produced; and it is
//! produced once, because complete graphs are collected in a set.

use crate::consistency::{self, Model};
use crate::graph::{BarrierGroup, BarrierInstance, Graph, Kind, Loc, ThreadId};
use crate::grid::{complete_read, reinterpret, source, status_after, Grid, Pending, Status};
use crate::observe::{Ending, Flow, Observer, Stats};
use crate::races::Race;
use std::collections::{BTreeMap, HashSet};
use thiserror::Error;
use warpsafe_interp::{
    BlockReason, EventKind, Fault, Launch, ResumeError, SetupError, Thread, Value,
};
use warpsafe_ir::{Kernel, Span};

/// The default [`Config::loop_bound`].
pub const DEFAULT_LOOP_BOUND: u32 = 8;

/// Bounds and model of an exploration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Complete executions before [`McError::TooManyExecutions`].
    pub max_executions: usize,
    /// Distinct partial graphs explored before [`McError::TooManyStates`]
    /// (default: no limit; `max_executions` and the observer govern).
    pub max_states: usize,
    /// Interpreter fuel per thread (bounds loops): [`McError::StepLimit`].
    pub max_steps: u64,
    /// Threads in the launch before [`McError::TooManyThreads`].
    pub max_threads: usize,
    /// Threads that interact (DPOR: see `dpor::active`) before
    /// [`McError::TooManyActiveThreads`]; the reference enumerator, whose
    /// cost grows with every thread, takes it as its limit on threads.
    pub max_active_threads: usize,
    pub model: Model,
    /// The most times a loop body may start per entry of the loop; a
    /// thread that would go further is cut (its execution is reported as
    /// cut, [`Execution::cut`]). `None`: loops are bounded by fuel only.
    pub loop_bound: Option<u32>,
    /// Stop a thread about to repeat a wasted iteration of an await loop
    /// (spin-assume, `warpsafe_interp::spin`); such executions are
    /// reported as cut too, and lose no error.
    pub spin_assume: bool,
    /// When the threads' set-up (the interpreter's kernel analyses) must
    /// give up, with [`McError::Setup`]; `None`: never. Exploring itself
    /// is limited by the [`crate::Observer`] (e.g. `--timeout`).
    pub setup_deadline: Option<std::time::Instant>,
    /// Cores the DPOR explorer may use (`dpor::parallel`); the executions
    /// it hands over, and their order, are the same for any number. The
    /// reference enumerator uses one.
    pub jobs: usize,
    /// With `jobs > 1`: workers give away work at every state whether or
    /// not another worker waits, so that parts are as many and as small
    /// as they can be (for tests of the ordered join; slow).
    pub share_eagerly: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_executions: 10_000,
            max_states: usize::MAX,
            max_steps: 10_000,
            max_threads: 1024,
            max_active_threads: 16,
            model: Model::default(),
            loop_bound: Some(DEFAULT_LOOP_BOUND),
            spin_assume: true,
            setup_deadline: None,
            jobs: 1,
            share_eagerly: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Error)]
pub enum McError {
    #[error("the launch has {threads} threads, more than the limit of {limit} (`--max-threads` raises it; with `--explorer reference`, `--max-active-threads`)")]
    TooManyThreads { threads: u64, limit: usize },
    #[error("more than {limit} threads interact (atomics, fences, or locations another thread writes): the exploration is exponential in them; `--max-active-threads` raises the limit")]
    TooManyActiveThreads { limit: usize },
    #[error("more than {limit} consistent executions")]
    TooManyExecutions { limit: usize },
    #[error("more than {limit} partial executions (states) explored (--max-states)")]
    TooManyStates { limit: usize },
    #[error("{thread} ran more than {limit} steps (raise the step limit or bound the loops)")]
    StepLimit {
        thread: ThreadId,
        limit: u64,
        span: Span,
    },
    #[error("cannot start {thread}: {error}")]
    Setup { thread: ThreadId, error: SetupError },
    #[error("malformed IR in {thread}: {fault}")]
    MalformedIr { thread: ThreadId, fault: Fault },
    #[error("the model checker does not support {what}")]
    Unsupported { what: String, span: Span },
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<ResumeError> for McError {
    fn from(e: ResumeError) -> McError {
        McError::Internal(e.to_string())
    }
}

/// An `assert` that failed in one thread of an execution.
#[derive(Clone, Debug, PartialEq)]
pub struct AssertionFailure {
    pub thread: ThreadId,
    pub message: String,
    pub span: Span,
}

/// A fault (undefined behaviour) of one thread of an execution.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadFault {
    pub thread: ThreadId,
    pub fault: Fault,
}

/// A thread stopped in a loop before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutThread {
    pub thread: ThreadId,
    pub reason: BlockReason,
    /// The loop.
    pub span: Span,
}

/// One consistent execution: complete, or cut where threads stopped in a
/// loop ([`Execution::cut`]; a prefix of real executions, whose races and
/// failures are real but whose final memory is not final).
#[derive(Clone, Debug, PartialEq)]
pub struct Execution {
    pub graph: Graph,
    /// The `co`-last value of every location the execution touched.
    pub final_memory: BTreeMap<Loc, Value>,
    pub assertion_failures: Vec<AssertionFailure>,
    pub faults: Vec<ThreadFault>,
    /// Threads left waiting at a barrier (barrier divergence, seed 000
    /// §2.1): the barrier events they are blocked at.
    pub blocked: Vec<(ThreadId, Span)>,
    /// Threads stopped in a loop; empty for a complete execution.
    pub cut: Vec<CutThread>,
    pub races: Vec<Race>,
}

impl Execution {
    /// No thread was stopped in a loop.
    pub fn is_complete(&self) -> bool {
        self.cut.is_empty()
    }

    /// Some thread reached the loop bound.
    pub fn hit_loop_bound(&self) -> bool {
        self.cut
            .iter()
            .any(|c| matches!(c.reason, BlockReason::LoopBound { .. }))
    }

    /// How the execution ended: complete, or cut (at the loop bound or
    /// not), as an observer counts it ([`Ending`]).
    pub fn ending(&self) -> Ending {
        if self.is_complete() {
            Ending::Complete
        } else {
            Ending::Cut {
                loop_bound: self.hit_loop_bound(),
            }
        }
    }
}

/// Everything one exploration found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exploration {
    /// The distinct consistent executions.
    pub executions: Vec<Execution>,
    /// Distinct partial graphs explored.
    pub states: usize,
    /// Successors dropped because their graph is inconsistent.
    pub pruned_inconsistent: usize,
    /// Successors dropped because a thread's `__assume` is false.
    pub pruned_infeasible: usize,
}

impl Exploration {
    /// The complete executions (no thread cut in a loop).
    pub fn complete(&self) -> impl Iterator<Item = &Execution> {
        self.executions.iter().filter(|e| e.is_complete())
    }

    /// Executions in which some thread reached the loop bound.
    pub fn bounded(&self) -> usize {
        self.executions
            .iter()
            .filter(|e| e.hit_loop_bound())
            .count()
    }

    /// Executions cut only by spin-assume (wasted await iterations).
    pub fn spin_blocked(&self) -> usize {
        self.executions
            .iter()
            .filter(|e| !e.is_complete() && !e.hit_loop_bound())
            .count()
    }

    /// The distinct final memory states of the complete executions.
    pub fn outcomes(&self) -> Vec<&BTreeMap<Loc, Value>> {
        let mut seen = HashSet::new();
        self.complete()
            .map(|e| &e.final_memory)
            .filter(|m| seen.insert(*m))
            .collect()
    }

    /// Every race of every execution, deduplicated by kind, location,
    /// threads and spans.
    pub fn races(&self) -> Vec<Race> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for r in self.executions.iter().flat_map(|e| &e.races) {
            let key = (
                r.kind,
                r.loc,
                (r.first.thread, r.first.span),
                (r.second.thread, r.second.span),
            );
            if seen.insert(key) {
                out.push(*r);
            }
        }
        out
    }

    pub fn assertion_failures(&self) -> impl Iterator<Item = &AssertionFailure> {
        self.executions.iter().flat_map(|e| &e.assertion_failures)
    }
}

#[derive(Clone)]
struct State<'k> {
    graph: Graph,
    threads: Vec<Thread<'k>>,
    status: Vec<Status>,
    /// Per thread, how many barriers of each group it arrived at.
    arrivals: Vec<BTreeMap<BarrierGroup, u32>>,
}

impl State<'_> {
    /// What identifies the state: the graph determines every thread (they
    /// are deterministic given what their reads return) except for a fault
    /// at an atomic, which depends on a value read without adding an event.
    fn key(&self) -> (Graph, Vec<bool>) {
        let faulted = self
            .status
            .iter()
            .map(|s| matches!(s, Status::Faulted(_)))
            .collect();
        (self.graph.clone(), faulted)
    }
}

/// A successor was dropped because an `__assume` failed.
struct Infeasible;

struct Explorer<'k, 'o> {
    grid: Grid<'k>,
    config: Config,
    visited: HashSet<(Graph, Vec<bool>)>,
    complete: HashSet<(Graph, Vec<bool>)>,
    out: Stats,
    observer: &'o mut dyn Observer,
}

/// Enumerates every consistent execution of `kernel` under `launch`.
pub fn explore(kernel: &Kernel, launch: &Launch, config: &Config) -> Result<Exploration, McError> {
    Exploration::collect(|observer| explore_with(kernel, launch, config, observer))
}

/// Enumerates every consistent execution of `kernel` under `launch`,
/// handing each to `observer` until it says stop. (The enumerator still
/// remembers every state it visited: it is exponential in memory too.)
pub fn explore_with(
    kernel: &Kernel,
    launch: &Launch,
    config: &Config,
    observer: &mut dyn Observer,
) -> Result<Stats, McError> {
    // Every thread costs the enumerator: its limit on threads is the DPOR
    // explorer's on threads that interact.
    let config = &Config {
        max_threads: config.max_threads.min(config.max_active_threads),
        ..*config
    };
    let (grid, threads) = Grid::start(kernel, launch, config)?;
    let ids = grid.ids.clone();
    let mut ex = Explorer {
        grid,
        config: *config,
        visited: HashSet::new(),
        complete: HashSet::new(),
        out: Stats::default(),
        observer,
    };
    let mut state = State {
        graph: Graph::new(ids.clone()),
        threads,
        status: vec![Status::Done; ids.len()],
        arrivals: vec![BTreeMap::new(); ids.len()],
    };
    for t in 0..ids.len() {
        if ex.advance(&mut state, t)?.is_err() {
            return Ok(ex.out);
        }
    }
    ex.run(state)?;
    Ok(ex.out)
}

impl<'k> Explorer<'k, '_> {
    fn run(&mut self, initial: State<'k>) -> Result<(), McError> {
        self.visited.insert(initial.key());
        self.out.states = 1;
        let mut stack = vec![initial];
        while let Some(state) = stack.pop() {
            if self.out.stopped || self.observer.tick(&self.out) == Flow::Stop {
                self.out.stopped = true;
                break;
            }
            let ready: Vec<usize> = (0..state.status.len())
                .filter(|t| matches!(state.status[*t], Status::Ready(_)))
                .collect();
            if ready.is_empty() {
                self.finish(state)?;
                continue;
            }
            for t in ready {
                for next in self.successors(&state, t)? {
                    if !self.visited.insert(next.key()) {
                        continue;
                    }
                    if consistency::check(&next.graph, self.config.model).is_err() {
                        self.out.pruned_inconsistent += 1;
                        continue;
                    }
                    self.out.states += 1;
                    if self.out.states > self.config.max_states {
                        return Err(McError::TooManyStates {
                            limit: self.config.max_states,
                        });
                    }
                    stack.push(next);
                }
            }
        }
        Ok(())
    }

    /// Records a complete execution.
    fn finish(&mut self, state: State<'k>) -> Result<(), McError> {
        if !self.complete.insert(state.key()) {
            return Ok(());
        }
        self.out.check_room(self.config.max_executions)?;
        let exec = self
            .grid
            .execution(state.graph, &state.status, &self.config);
        self.out.hand(exec, &mut *self.observer);
        Ok(())
    }

    /// Runs thread `t` to its next event and records where it stopped.
    fn advance(
        &mut self,
        state: &mut State<'k>,
        t: usize,
    ) -> Result<Result<(), Infeasible>, McError> {
        let status = status_after(state.threads[t].step(), self.grid.ids[t])?;
        if matches!(status, Status::Infeasible) {
            self.out.pruned_infeasible += 1;
            return Ok(Err(Infeasible));
        }
        state.status[t] = status;
        Ok(Ok(()))
    }

    /// Every way thread `t` can perform its next event.
    fn successors(&mut self, state: &State<'k>, t: usize) -> Result<Vec<State<'k>>, McError> {
        let Status::Ready(ev) = &state.status[t] else {
            return Ok(Vec::new());
        };
        let span = ev.span;
        let id = state.graph.next_id(t);
        let mut out = Vec::new();
        match self.grid.pending(t, id, &state.threads[t], ev)? {
            Pending::Read {
                event: read,
                loc,
                ty,
            } => {
                let mut s0 = state.clone();
                let init = self.grid.init_value(loc, ty);
                s0.graph.init.entry(loc).or_insert(init);
                for (pos, src) in s0.graph.co_sources(loc).into_iter().enumerate() {
                    let mut s = s0.clone();
                    let old = reinterpret(source(&s.graph, loc, src)?, ty);
                    let mut e = read.clone();
                    e.read_value = Some(old);
                    if let Err(kind) = complete_read(&mut e, &ev.kind, old)? {
                        // The thread faults at the atomic, which is not
                        // performed.
                        s.status[t] = Status::Faulted(Fault::new(kind, span));
                        out.push(s);
                        continue;
                    }
                    // An update sits in `co` right after its source.
                    if e.kind == Kind::Update {
                        s.graph.co.entry(loc).or_default().insert(pos, id);
                    }
                    s.graph.push(e);
                    s.graph.rf.insert(id, src);
                    match &ev.kind {
                        EventKind::Load { .. } => s.threads[t].resume_load(old)?,
                        EventKind::Rmw { .. } => s.threads[t].resume_rmw(old)?,
                        _ => s.threads[t].resume_cas(old)?,
                    }
                    self.push_advanced(s, t, &mut out)?;
                }
            }
            Pending::Write { event: e, loc, ty } => {
                let mut s0 = state.clone();
                let init = self.grid.init_value(loc, ty);
                s0.graph.init.entry(loc).or_insert(init);
                let n = s0.graph.co.get(&loc).map_or(0, Vec::len);
                for pos in 0..=n {
                    let mut s = s0.clone();
                    s.graph.push(e.clone());
                    s.graph.co.entry(loc).or_default().insert(pos, id);
                    self.push_advanced(s, t, &mut out)?;
                }
            }
            Pending::Fence(e) => {
                let mut s = state.clone();
                s.graph.push(e);
                self.push_advanced(s, t, &mut out)?;
            }
            Pending::Barrier {
                event: mut e,
                group,
                reduce,
                site,
            } => {
                let mut s = state.clone();
                let generation = {
                    let g = s.arrivals[t].entry(group).or_insert(0);
                    *g += 1;
                    *g - 1
                };
                let instance = BarrierInstance { group, generation };
                e.barrier = Some(instance);
                s.graph.push(e);
                s.status[t] = Status::AtBarrier {
                    instance,
                    reduce,
                    span,
                    site,
                };
                if self.release(&mut s, instance)?.is_ok() {
                    out.push(s);
                }
            }
        }
        Ok(out)
    }

    fn push_advanced(
        &mut self,
        mut s: State<'k>,
        t: usize,
        out: &mut Vec<State<'k>>,
    ) -> Result<(), McError> {
        if self.advance(&mut s, t)?.is_ok() {
            out.push(s);
        }
        Ok(())
    }

    /// Releases the threads at `instance` when all participants arrived.
    fn release(
        &mut self,
        s: &mut State<'k>,
        instance: BarrierInstance,
    ) -> Result<Result<(), Infeasible>, McError> {
        let Some(plan) = self.grid.release_plan(instance, |u| &s.status[u]) else {
            return Ok(Ok(()));
        };
        for (u, reduced) in plan {
            if let Some(v) = reduced {
                s.threads[u].resume_barrier(v)?;
            }
            if self.advance(s, u)?.is_err() {
                return Ok(Err(Infeasible));
            }
        }
        Ok(Ok(()))
    }
}
