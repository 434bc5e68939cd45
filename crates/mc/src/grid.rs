//! The launched threads, shared by the three drivers of threads over
//! execution graphs (the reference enumerator, DPOR and replay): starting
//! one interpreter per thread of a concrete launch, where a thread's
//! accesses and barriers land (locations, barrier groups, initial values),
//! what a thread's next interpreter event is in the graph ([`Pending`]),
//! when a barrier releases its threads ([`Grid::release_plan`]), where each
//! thread stands, and the errors a complete execution shows.
//!
//! Invariant: thread `t` of an explorer's state is `ids[t]`; threads are
//! numbered block by block, in linear order within a block. An interpreter
//! event becomes a graph event only through [`Grid::pending`] (and, for
//! reads, [`complete_read`]), so the drivers cannot disagree on it.

use crate::consistency::Relations;
use crate::graph::{
    BarrierGroup, BarrierInstance, Event, EventId, Graph, Kind, Loc, Order, RfSource, ThreadId,
};
use crate::races::{races, Race};
use crate::reference::{AssertionFailure, Config, CutThread, Execution, McError, ThreadFault};
use std::sync::Arc;
use warpsafe_interp::{
    apply_rmw, cas_result, cas_succeeds, reduce_barrier, Awaiting, Barrier, BlockReason, EventKind,
    Fault, FaultKind, Launch, Location, Step, StmtSite, Thread, ThreadConfig, ThreadCtx, Value,
    WARP_SIZE,
};
use warpsafe_ir::{Kernel, MemSpace, ReduceOp, ScalarTy, Span};

/// Where a thread is.
#[derive(Clone, Debug)]
pub(crate) enum Status {
    /// Paused at this event.
    Ready(warpsafe_interp::Event),
    /// Arrived at a barrier that has not been released.
    AtBarrier {
        instance: BarrierInstance,
        reduce: Option<(ReduceOp, bool)>,
        span: Span,
        /// The barrier statement and its loop iterations (see
        /// [`same_barrier`]).
        site: BarrierSite,
    },
    Done,
    Failed {
        message: String,
        span: Span,
    },
    Faulted(Fault),
    /// Stopped in a loop: the loop bound, or a wasted iteration of an
    /// await loop (spin-assume, `warpsafe_interp::spin`). The execution
    /// is a prefix of real ones; it is reported, marked as cut.
    Cut {
        reason: BlockReason,
        span: Span,
    },
    /// An `__assume` failed after the thread read memory: the execution is
    /// kept until its end (a later write may revisit a read and make the
    /// assumption hold), then dropped.
    Infeasible,
}

/// The kernel and the identity of every launched thread.
#[derive(Clone)]
pub(crate) struct Grid<'k> {
    pub kernel: &'k Kernel,
    pub ids: Vec<ThreadId>,
    /// The launch, for the initial contents the host gave global arrays.
    launch: Arc<Launch>,
}

impl<'k> Grid<'k> {
    /// One interpreter per thread of `launch`, or why they cannot start.
    pub fn start(
        kernel: &'k Kernel,
        launch: &Launch,
        config: &Config,
    ) -> Result<(Grid<'k>, Vec<Thread<'k>>), McError> {
        let launch = Arc::new(launch.clone());
        let total = launch.threads();
        if total > config.max_threads as u64 {
            return Err(McError::TooManyThreads {
                threads: total,
                limit: config.max_threads,
            });
        }
        let thread_config = ThreadConfig {
            max_steps: config.max_steps,
            loop_bound: config.loop_bound,
            spin_assume: config.spin_assume,
            idle_updates_read: crate::scope::atomics_include_every_thread(
                kernel,
                launch.blocks(),
                launch.threads_per_block(),
            ),
            // The explorers keep a cut iteration's reads in the execution.
            quiet_reads: true,
            setup_deadline: config.setup_deadline,
            ..ThreadConfig::default()
        };
        let mut ids = Vec::new();
        let mut threads: Vec<Thread<'k>> = Vec::new();
        for b in 0..launch.blocks() {
            for t in 0..launch.threads_per_block() {
                let id = ThreadId {
                    block: b as u32,
                    thread: t as u32,
                };
                let ctx = ThreadCtx::at_linear(launch.clone(), b, t);
                // The first thread analyses the kernel; the others share it.
                let thread = match threads.first() {
                    None => Thread::new(kernel, ctx, thread_config),
                    Some(first) => first.sibling(ctx),
                };
                threads.push(thread.map_err(|error| McError::Setup { thread: id, error })?);
                ids.push(id);
            }
        }
        Ok((
            Grid {
                kernel,
                ids,
                launch,
            },
            threads,
        ))
    }

    /// The location thread `t` touches: shared arrays are per block.
    /// Thread `t`'s pending interpreter event `ev` as the graph event
    /// numbered `id` (see [`Pending`]); `thread` is `t`'s interpreter, for
    /// the type a resumed atomic reads at. An unknown value (`Havoc`) is
    /// unsupported: an explorer of concrete executions cannot choose it.
    pub fn pending(
        &self,
        t: usize,
        id: EventId,
        thread: &Thread<'_>,
        ev: &warpsafe_interp::Event,
    ) -> Result<Pending, McError> {
        let mut e = Event {
            id,
            thread: self.ids[t],
            kind: Kind::Read,
            loc: None,
            read_value: None,
            written_value: None,
            order: Order::NonAtomic,
            scope: None,
            span: ev.span,
            barrier: None,
        };
        // An atomic resumed after a wait reads at the type it awaits.
        let awaited = match thread.awaiting() {
            Some(Awaiting::Load { ty } | Awaiting::Rmw { ty } | Awaiting::Cas { ty }) => Some(ty),
            _ => None,
        };
        Ok(match &ev.kind {
            EventKind::Load { loc, ty, .. } => {
                let loc = self.loc(t, *loc);
                e.loc = Some(loc);
                Pending::Read {
                    event: e,
                    loc,
                    ty: *ty,
                }
            }
            EventKind::Rmw { loc, operand, .. } => {
                let loc = self.loc(t, *loc);
                e.loc = Some(loc);
                let ty = awaited.unwrap_or(operand.ty());
                Pending::Read { event: e, loc, ty }
            }
            EventKind::Cas { loc, expected, .. } => {
                let loc = self.loc(t, *loc);
                e.loc = Some(loc);
                let ty = awaited.unwrap_or(expected.ty());
                Pending::Read { event: e, loc, ty }
            }
            EventKind::Store { loc, value, access } => {
                let loc = self.loc(t, *loc);
                (e.order, e.scope) = Order::from_access(*access);
                e.kind = Kind::Write;
                e.loc = Some(loc);
                e.written_value = Some(*value);
                Pending::Write {
                    event: e,
                    loc,
                    ty: value.ty(),
                }
            }
            EventKind::Fence { order, scope } => {
                e.kind = Kind::Fence;
                e.order = Order::from_mem_order(*order);
                e.scope = Some(*scope);
                Pending::Fence(e)
            }
            EventKind::Barrier {
                barrier, reduce, ..
            } => {
                e.kind = Kind::Barrier;
                e.order = Order::AcqRel;
                Pending::Barrier {
                    event: e,
                    group: self.group(t, *barrier),
                    reduce: *reduce,
                    site: BarrierSite::of(ev),
                }
            }
            EventKind::Havoc { reason, .. } => {
                return Err(McError::Unsupported {
                    what: format!("unknown values ({reason})"),
                    span: ev.span,
                })
            }
        })
    }

    /// The threads barrier `instance` releases once every participant has
    /// arrived at it, each with the value its `__syncthreads_count/_and/_or`
    /// resumes with; `None` while a participant is missing, or when they
    /// wait at different barriers ([`same_barrier`]: divergent threads stay
    /// blocked). `status(u)` is where thread `u` stands.
    pub fn release_plan<'s>(
        &self,
        instance: BarrierInstance,
        status: impl Fn(usize) -> &'s Status,
    ) -> Option<Vec<(usize, Option<i32>)>> {
        let parts: Vec<usize> = (0..self.ids.len())
            .filter(|u| self.participates(*u, instance.group))
            .collect();
        let mut preds = Vec::new();
        let mut sites = Vec::new();
        let mut ops = Vec::new();
        for u in &parts {
            match status(*u) {
                Status::AtBarrier {
                    instance: i,
                    reduce,
                    site,
                    ..
                } if *i == instance => {
                    preds.push(reduce.is_some_and(|(_, p)| p));
                    sites.push(site);
                    ops.push(reduce.map(|(op, _)| op));
                }
                _ => return None,
            }
        }
        if !same_barrier(instance, &sites) {
            return None;
        }
        Some(
            parts
                .into_iter()
                .zip(ops)
                .map(|(u, op)| (u, op.map(|op| reduce_barrier(op, preds.iter().copied()))))
                .collect(),
        )
    }

    pub fn loc(&self, t: usize, l: Location) -> Loc {
        location(self.kernel, self.ids[t].block, l)
    }

    /// The initial value of `loc`: the contents the launch gives the array
    /// (host inputs), else the array's initialiser, else zero, at the
    /// slot's type (`ty` when the IR does not say).
    pub fn init_value(&self, loc: Loc, ty: ScalarTy) -> Value {
        initial_value(self.kernel, &self.launch, loc, ty)
    }

    /// The threads a barrier of thread `t` synchronises.
    pub fn group(&self, t: usize, barrier: Barrier) -> BarrierGroup {
        let block = self.ids[t].block;
        let tid = self.ids[t].thread;
        match barrier {
            Barrier::Block => BarrierGroup::Block { block },
            Barrier::Grid => BarrierGroup::Grid,
            Barrier::Warp { mask } => BarrierGroup::Warp {
                block,
                warp: tid / WARP_SIZE,
                mask,
            },
            Barrier::Tile { size } => BarrierGroup::Tile {
                block,
                size,
                tile: tid / size.max(1),
            },
        }
    }

    /// Whether thread `u` takes part in barriers of `group`.
    pub fn participates(&self, u: usize, group: BarrierGroup) -> bool {
        in_group(self.ids[u], group)
    }

    /// A complete execution: its graph, final memory, races, and each
    /// thread's failed assertion, fault or barrier it is stuck at.
    pub fn execution(&self, graph: Graph, status: &[Status], config: &Config) -> Execution {
        let races = races(&Relations::new(&graph, config.model));
        self.execution_with(graph, status.iter(), races)
    }

    /// A complete execution whose races are already known.
    pub fn execution_with<'s>(
        &self,
        graph: Graph,
        status: impl Iterator<Item = &'s Status>,
        races: Vec<Race>,
    ) -> Execution {
        let mut exec = Execution {
            final_memory: graph.final_memory(),
            assertion_failures: Vec::new(),
            faults: Vec::new(),
            blocked: Vec::new(),
            cut: Vec::new(),
            races,
            graph: Graph::default(),
        };
        let status: Vec<&Status> = status.collect();
        // A thread stopped in a loop would go on: threads waiting for it
        // at a barrier are not divergent.
        let cut = status.iter().any(|s| matches!(s, Status::Cut { .. }));
        for (t, status) in status.into_iter().enumerate() {
            let thread = self.ids[t];
            match status {
                Status::Failed { message, span } => {
                    exec.assertion_failures.push(AssertionFailure {
                        thread,
                        message: message.clone(),
                        span: *span,
                    })
                }
                Status::Faulted(fault) => exec.faults.push(ThreadFault {
                    thread,
                    fault: fault.clone(),
                }),
                Status::AtBarrier { span, .. } if !cut => exec.blocked.push((thread, *span)),
                Status::Cut { reason, span } => exec.cut.push(CutThread {
                    thread,
                    reason: *reason,
                    span: *span,
                }),
                Status::AtBarrier { .. } | Status::Done | Status::Ready(_) | Status::Infeasible => {
                }
            }
        }
        exec.graph = graph;
        exec
    }
}

/// The location a thread of block `block` touches at `l`: `__shared__`
/// arrays are per block.
pub fn location(kernel: &Kernel, block: u32, l: Location) -> Loc {
    let shared = kernel
        .arrays
        .get(l.array.0 as usize)
        .is_some_and(|a| a.space == MemSpace::Shared);
    Loc {
        array: l.array,
        index: l.index,
        block: shared.then_some(block),
    }
}

/// The initial value of `loc` in a launch of `kernel`: the contents the
/// launch gives the array (host inputs), else the array's initialiser,
/// else zero, at the slot's type (`ty` when the IR does not say). Every
/// explorer starts from these values.
pub fn initial_value(kernel: &Kernel, launch: &Launch, loc: Loc, ty: ScalarTy) -> Value {
    let Some(array) = kernel.arrays.get(loc.array.0 as usize) else {
        return Value::zero(ty);
    };
    let slot_ty = if array.slots.is_empty() {
        ty
    } else {
        array.slots[(loc.index % array.slots.len() as u64) as usize]
    };
    if let Some(v) = launch.initial_value(loc.array, loc.index) {
        return reinterpret(v, slot_ty);
    }
    match array.init.as_ref().and_then(|v| v.get(loc.index as usize)) {
        Some(c) => Value::from_const(*c, slot_ty),
        None => Value::zero(slot_ty),
    }
}

/// A thread's next interpreter event as a graph event ([`Grid::pending`]),
/// before an explorer places it.
pub(crate) enum Pending {
    /// A load, RMW or CAS of `loc` (also `event.loc`), read at `ty`:
    /// `event` is a plain read until [`complete_read`] completes it from
    /// the value its chosen source gives.
    Read {
        event: Event,
        loc: Loc,
        ty: ScalarTy,
    },
    /// A write of a value of type `ty` to `loc`, complete (location, order,
    /// scope, value).
    Write {
        event: Event,
        loc: Loc,
        ty: ScalarTy,
    },
    Fence(Event),
    /// An arrival at a barrier of `group`: the explorer numbers the
    /// instance (`event.barrier`), which depends on the arrivals so far.
    Barrier {
        event: Event,
        group: BarrierGroup,
        reduce: Option<(ReduceOp, bool)>,
        site: BarrierSite,
    },
}

/// Where a thread arrived at a barrier: the statement and the iteration
/// of each enclosing loop ([`EventKind::Barrier`]'s `iterations`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BarrierSite {
    pub stmt: StmtSite,
    pub iterations: Vec<u32>,
}

impl BarrierSite {
    /// The site of `ev`, a barrier event (any other event has no
    /// iterations).
    pub fn of(ev: &warpsafe_interp::Event) -> BarrierSite {
        let iterations = match &ev.kind {
            EventKind::Barrier { iterations, .. } => iterations.clone(),
            _ => Vec::new(),
        };
        BarrierSite {
            stmt: ev.site,
            iterations,
        }
    }
}

/// Whether the participants of `instance`, all arrived, at the barrier
/// statements `sites`, may be released. The threads of a block must meet
/// at one `__syncthreads()` statement in the same iteration of each
/// enclosing loop: textually different block barriers (an `if`/`else`
/// with one in each branch, or one inlined function's barrier reached
/// through two call sites), and one barrier passed in different
/// iterations, are barrier divergence in CUDA (undefined behaviour), even
/// when the counts match. Threads not
/// released stay blocked, so the execution ends with them reported as
/// divergent. Warp, tile and grid barriers are matched by count only
/// (`__syncwarp` may meet at different statements on current GPUs).
pub(crate) fn same_barrier(instance: BarrierInstance, sites: &[&BarrierSite]) -> bool {
    match instance.group {
        BarrierGroup::Block { .. } => sites.windows(2).all(|w| w[0] == w[1]),
        BarrierGroup::Warp { .. } | BarrierGroup::Tile { .. } | BarrierGroup::Grid => true,
    }
}

/// The value a source provides (a missing one is an internal error).
pub(crate) fn source(graph: &Graph, loc: Loc, src: RfSource) -> Result<Value, McError> {
    graph
        .source_value(loc, src)
        .ok_or_else(|| McError::Internal(format!("no value for {src:?} at {loc}")))
}

/// A value read as `ty`: itself, or its bits reinterpreted.
pub fn reinterpret(v: Value, ty: ScalarTy) -> Value {
    if v.ty() == ty {
        v
    } else {
        Value::from_bits(ty, v.to_bits())
    }
}

/// Whether thread `id` takes part in barriers of `group`.
pub(crate) fn in_group(id: ThreadId, group: BarrierGroup) -> bool {
    match group {
        BarrierGroup::Block { block } => id.block == block,
        BarrierGroup::Grid => true,
        BarrierGroup::Warp { block, warp, mask } => {
            id.block == block
                && id.thread / WARP_SIZE == warp
                && mask & (1 << (id.thread % WARP_SIZE)) != 0
        }
        BarrierGroup::Tile { block, size, tile } => {
            id.block == block && id.thread / size.max(1) == tile
        }
    }
}

/// The status of `thread` after its interpreter step `step`: a failed
/// `__assume` is [`Status::Infeasible`], which each explorer treats its
/// own way; a step limit or malformed IR ends the whole exploration.
pub(crate) fn status_after(step: Result<Step, Fault>, thread: ThreadId) -> Result<Status, McError> {
    Ok(match step {
        Ok(Step::Event(e)) => Status::Ready(e),
        Ok(Step::Done) => Status::Done,
        Ok(Step::AssertionFailed { message, span }) => Status::Failed { message, span },
        Ok(Step::Infeasible { .. }) => Status::Infeasible,
        Ok(Step::Blocked { reason, span }) => Status::Cut { reason, span },
        // The explorers never ask for yields (`spin_yield` is off).
        Ok(Step::Yield { span, reads }) => Status::Cut {
            reason: BlockReason::SpinLoop { reads },
            span,
        },
        Err(fault) => match fault.kind {
            FaultKind::StepLimit { limit } => {
                return Err(McError::StepLimit {
                    thread,
                    limit,
                    span: fault.span,
                })
            }
            _ if fault.is_malformed_ir() => return Err(McError::MalformedIr { thread, fault }),
            _ => Status::Faulted(fault),
        },
    })
}

/// Completes `e`, the event of the pending load, RMW or CAS `ev` reading
/// `old`: its kind (an RMW, or a CAS that succeeds, is an update), order,
/// scope and written value. `Ok(Err(kind))`: the RMW faults on `old`.
pub(crate) fn complete_read(
    e: &mut Event,
    ev: &EventKind,
    old: Value,
) -> Result<Result<(), FaultKind>, McError> {
    match ev {
        EventKind::Load { access, .. } => {
            let (order, scope) = Order::from_access(*access);
            e.order = order;
            e.scope = scope;
        }
        EventKind::Rmw {
            op,
            operand,
            order,
            scope,
            ..
        } => {
            let new = match apply_rmw(*op, old, *operand) {
                Ok(v) => v,
                Err(kind) => return Ok(Err(kind)),
            };
            e.kind = Kind::Update;
            e.order = Order::from_mem_order(*order);
            e.scope = Some(*scope);
            e.written_value = Some(new);
        }
        EventKind::Cas {
            expected,
            desired,
            order,
            failure_order,
            scope,
            ..
        } => {
            e.scope = Some(*scope);
            if cas_succeeds(old, *expected) {
                e.kind = Kind::Update;
                e.order = Order::from_mem_order(*order);
                e.written_value = Some(cas_result(old, *expected, *desired));
            } else {
                e.order = Order::from_mem_order(*failure_order);
            }
        }
        _ => return Err(McError::Internal("the pending event is no read".into())),
    }
    Ok(Ok(()))
}
