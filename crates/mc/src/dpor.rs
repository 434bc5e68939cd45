//! The DPOR explorer (seed 000 §4, GPUMC; an extension of GenMC's TruSt,
//! Kokologiannakis et al., POPL 2022): every consistent execution of one
//! concrete launch, each produced once, without enumerating interleavings.
//!
//! # Algorithm
//!
//! One partial graph is extended one event at a time. The next event is the
//! pending event of the *lowest* thread that can run (a function of the
//! graph alone, since threads are deterministic given what they read).
//! Every state also records the *insertion order* `<` of its events (a
//! stamp per event) and, per read, whether it is still *revisitable*.
//!
//! - A **read** branches over every write to its location (and the initial
//!   value); an **RMW/CAS** likewise, an update being placed in `co` right
//!   after its source (the only placement (Atomicity) allows; an update is
//!   one event, see [`crate::graph`]).
//! - A **write** branches over every `co` position (forward), and over the
//!   **backward revisits**: every revisitable read `r` of its location that
//!   is not in the `porf`-prefix of the write `a` (the prefix is closed
//!   under `po`, `rf` and barrier instances; an update's source is in it)
//!   may read from `a`. *Deleted* are the events added after `r` that are
//!   not in `porf(a)`; the graph is restricted to the others, `r` is
//!   re-executed reading from `a` (keeping its place in `<`, as in TruSt),
//!   and `a` is placed at every `co` position of the restricted graph. The
//!   reads of `porf(a)`, and `a` itself when it is an update, become
//!   non-revisitable (otherwise two revisit orders would build one graph).
//!   When `r` is (or becomes) an update, its new write revisits in turn,
//!   as the write part of a two-event RMW would once re-added (TruSt and
//!   GenMC split an RMW into a read and a write; here it is one event).
//! - **Optimality**: a revisit happens only when `r` and every deleted
//!   event `e` is *maximally added* (TruSt's `IsMaximallyAdded`): with `E'`
//!   the events up to `e` in `<` plus `porf(a)`, a read (or update) `e` is
//!   revisitable and reads from a write of `E'` (or the initial value) that
//!   is `co`-maximal among the writes of `E'` other than `a` and `e`, and a
//!   write `e` is `co`-maximal among them. The graph revisited from is then
//!   the unique maximal extension of the result, so every graph has one
//!   predecessor and is produced once.
//! - Every successor is checked with [`crate::consistency::check`] and
//!   dropped when inconsistent (revisits are tried from a write whatever
//!   its forward placements gave). Barriers block a thread until every
//!   participant arrived, as in [`crate::reference`]; a restriction that
//!   removes an arrival puts the other participants back at the barrier.
//! - A thread's state is restored from a snapshot taken at each event (a
//!   [`warpsafe_interp::Thread`] is cheap to clone), so restricting a graph
//!   never re-runs threads from their start.
//!
//! Evidence: `tests/dpor.rs` checks, against [`crate::reference`], the
//! same set of graphs (hence counts and outcomes) and no graph twice, on
//! every litmus kernel and on random programs of two to four threads
//! (atomics of both scopes, exchanges, CAS, `atomicAdd`, plain accesses,
//! fences, barriers), and LB-n has `2^n - 1` executions.
//!
//! The work list is an explicit stack (no recursion). Executions, races,
//! assertion failures, faults and blocked threads are reported as
//! [`crate::reference::explore`] reports them; `states` counts the
//! consistent partial graphs pushed.
//!
//! # Limitations
//!
//! - `co` is explicit (executions are graphs with `co`, as the reference
//!   enumerator counts them), not the reads-from partitioning of §4.4.
//! - The maximality conditions are TruSt's for RC11, applied to SRC11
//!   unchanged; no scope-specific revisit condition was needed on the tests
//!   (the paper's remark about `co` orders that only scopes make consistent
//!   is covered by trying every `co` placement of the revisiting write).
//! - An RMW whose operation faults (an ill-typed atomic) is assumed to
//!   fault whatever value it reads (true of [`warpsafe_interp::apply_rmw`]
//!   today: its faults depend on the type only); a revisit that would make a
//!   read fault is dropped.
//! - Unknown values (`Havoc`) are not supported (an error).

use crate::consistency::{self};
use crate::graph::{BarrierInstance, Event, EventId, Graph, Kind, Loc, Order, RfSource};
use crate::grid::{reinterpret, source, Grid, Status};
use crate::observe::{Flow, Observer, Stats};
use crate::reference::{Config, Exploration, McError};
use warpsafe_interp::{
    apply_rmw, cas_result, cas_succeeds, reduce_barrier, Awaiting, EventKind, Fault, FaultKind,
    Launch, Step, Thread,
};
use warpsafe_ir::{Kernel, ScalarTy, Span};

/// What the explorer keeps about an event of the graph.
#[derive(Clone)]
struct Meta<'k> {
    /// The thread paused at this event (before it was performed).
    pre: Thread<'k>,
    /// The interpreter's event.
    ev: warpsafe_interp::Event,
    /// Insertion order.
    stamp: u64,
    /// A read that later writes may revisit (false once it is in the
    /// `porf`-prefix of a write that revisited an earlier read).
    revisitable: bool,
}

#[derive(Clone)]
struct State<'k> {
    graph: Graph,
    threads: Vec<Thread<'k>>,
    status: Vec<Status>,
    meta: Vec<Vec<Meta<'k>>>,
    /// The location of the atomic a thread faulted at (its initial value is
    /// part of the graph, as in the reference enumerator).
    fault_loc: Vec<Option<Loc>>,
    next_stamp: u64,
}

impl<'k> State<'k> {
    fn meta(&self, id: EventId) -> &Meta<'k> {
        &self.meta[id.thread][id.index]
    }

    fn meta_mut(&mut self, id: EventId) -> &mut Meta<'k> {
        &mut self.meta[id.thread][id.index]
    }

    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }
}

/// What performing a read-like event gave.
enum Performed {
    Ok,
    Infeasible,
    Fault(FaultKind),
}

struct Explorer<'k, 'o> {
    grid: Grid<'k>,
    config: Config,
    out: Stats,
    observer: &'o mut dyn Observer,
}

/// Explores every consistent execution of `kernel` under `launch` once, by
/// DPOR (see the module docs), and keeps them all.
pub fn explore(kernel: &Kernel, launch: &Launch, config: &Config) -> Result<Exploration, McError> {
    let mut all = Exploration::default();
    let stats = explore_with(kernel, launch, config, &mut all)?;
    all.states = stats.states;
    all.pruned_inconsistent = stats.pruned_inconsistent;
    all.pruned_infeasible = stats.pruned_infeasible;
    Ok(all)
}

/// Explores every consistent execution of `kernel` under `launch` once, by
/// DPOR, handing each to `observer` until it says stop.
pub fn explore_with(
    kernel: &Kernel,
    launch: &Launch,
    config: &Config,
    observer: &mut dyn Observer,
) -> Result<Stats, McError> {
    let (grid, threads) = Grid::start(kernel, launch, config)?;
    let ids = grid.ids.clone();
    let n = ids.len();
    let mut ex = Explorer {
        grid,
        config: *config,
        out: Stats::default(),
        observer,
    };
    let mut state = State {
        graph: Graph::new(ids),
        threads,
        status: vec![Status::Done; n],
        meta: vec![Vec::new(); n],
        fault_loc: vec![None; n],
        next_stamp: 0,
    };
    for t in 0..n {
        if !ex.advance(&mut state, t)? {
            return Ok(ex.out);
        }
    }
    ex.run(state)?;
    Ok(ex.out)
}

impl<'k> Explorer<'k, '_> {
    fn run(&mut self, initial: State<'k>) -> Result<(), McError> {
        self.out.states = 1;
        let mut stack = vec![initial];
        while let Some(state) = stack.pop() {
            if self.out.stopped {
                break;
            }
            let next =
                (0..state.status.len()).find(|t| matches!(state.status[*t], Status::Ready(_)));
            let Some(t) = next else {
                self.finish(state)?;
                continue;
            };
            let succs = self.successors(state, t)?;
            for s in succs.into_iter().rev() {
                self.out.states += 1;
                if self.out.states > self.config.max_states {
                    return Err(McError::TooManyStates {
                        limit: self.config.max_states,
                    });
                }
                stack.push(s);
            }
        }
        Ok(())
    }

    fn finish(&mut self, state: State<'k>) -> Result<(), McError> {
        if self.out.executions >= self.config.max_executions {
            return Err(McError::TooManyExecutions {
                limit: self.config.max_executions,
            });
        }
        let exec = self
            .grid
            .execution(state.graph, &state.status, &self.config);
        self.out.executions += 1;
        if self.observer.execution(exec) == Flow::Stop {
            self.out.stopped = true;
        }
        Ok(())
    }

    /// Keeps `s` when its graph is consistent.
    fn keep(&mut self, s: State<'k>, out: &mut Vec<State<'k>>) {
        debug_assert!(well_formed(&s), "{}", dump(&s));
        if consistency::check(&s.graph, self.config.model).is_ok() {
            out.push(s);
        } else {
            self.out.pruned_inconsistent += 1;
        }
    }

    /// Runs thread `t` to its next event; `false` when an `__assume` fails.
    fn advance(&mut self, state: &mut State<'k>, t: usize) -> Result<bool, McError> {
        state.status[t] = match state.threads[t].step() {
            Ok(Step::Event(e)) => Status::Ready(e),
            Ok(Step::Done) => Status::Done,
            Ok(Step::AssertionFailed { message, span }) => Status::Failed { message, span },
            Ok(Step::Infeasible { .. }) => {
                self.out.pruned_infeasible += 1;
                return Ok(false);
            }
            Err(fault) => match fault.kind {
                FaultKind::StepLimit { limit } => {
                    return Err(McError::StepLimit {
                        thread: self.grid.ids[t],
                        limit,
                        span: fault.span,
                    })
                }
                _ if fault.is_malformed_ir() => {
                    return Err(McError::MalformedIr {
                        thread: self.grid.ids[t],
                        fault,
                    })
                }
                _ => Status::Faulted(fault),
            },
        };
        Ok(true)
    }

    /// The location and type of thread `t`'s pending read-like event.
    fn read_target(&self, s: &State<'k>, t: usize) -> Option<(Loc, ScalarTy)> {
        let Status::Ready(ev) = &s.status[t] else {
            return None;
        };
        let awaited = match s.threads[t].awaiting() {
            Some(Awaiting::Load { ty } | Awaiting::Rmw { ty } | Awaiting::Cas { ty }) => Some(ty),
            _ => None,
        };
        match &ev.kind {
            EventKind::Load { loc, ty, .. } => Some((self.grid.loc(t, *loc), *ty)),
            EventKind::Rmw { loc, operand, .. } => {
                Some((self.grid.loc(t, *loc), awaited.unwrap_or(operand.ty())))
            }
            EventKind::Cas { loc, expected, .. } => {
                Some((self.grid.loc(t, *loc), awaited.unwrap_or(expected.ty())))
            }
            _ => None,
        }
    }

    fn base_event(&self, s: &State<'k>, t: usize, kind: Kind, span: Span) -> Event {
        Event {
            id: s.graph.next_id(t),
            thread: self.grid.ids[t],
            kind,
            loc: None,
            read_value: None,
            written_value: None,
            order: Order::NonAtomic,
            scope: None,
            span,
            barrier: None,
        }
    }

    /// Appends `e` (thread `t`'s pending event) with its bookkeeping.
    fn push_event(&self, s: &mut State<'k>, t: usize, e: Event, revisitable: bool) {
        let Status::Ready(ev) = &s.status[t] else {
            unreachable!("only ready threads perform events");
        };
        let meta = Meta {
            pre: s.threads[t].clone(),
            ev: ev.clone(),
            stamp: s.stamp(),
            revisitable,
        };
        s.graph.push(e);
        s.meta[t].push(meta);
    }

    /// Performs thread `t`'s pending load, RMW or CAS reading from `src`
    /// (an update goes right after `src` in `co`), then advances the thread.
    fn perform_read(
        &mut self,
        s: &mut State<'k>,
        t: usize,
        src: RfSource,
        revisitable: bool,
    ) -> Result<Performed, McError> {
        let Status::Ready(ev) = s.status[t].clone() else {
            return Err(McError::Internal("no pending read".into()));
        };
        let Some((loc, ty)) = self.read_target(s, t) else {
            return Err(McError::Internal("the pending event is no read".into()));
        };
        let init = self.grid.init_value(loc, ty);
        s.graph.init.entry(loc).or_insert(init);
        let old = reinterpret(source(&s.graph, loc, src)?, ty);
        let id = s.graph.next_id(t);
        let mut e = self.base_event(s, t, Kind::Read, ev.span);
        e.loc = Some(loc);
        e.read_value = Some(old);
        match &ev.kind {
            EventKind::Load { access, .. } => {
                let (order, scope) = Order::from_access(*access);
                e.order = order;
                e.scope = scope;
                self.push_event(s, t, e, revisitable);
                s.threads[t].resume_load(old)?;
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
                    Err(kind) => return Ok(Performed::Fault(kind)),
                };
                e.kind = Kind::Update;
                e.order = Order::from_mem_order(*order);
                e.scope = Some(*scope);
                e.written_value = Some(new);
                self.push_event(s, t, e, revisitable);
                insert_after(&mut s.graph, loc, src, id);
                s.threads[t].resume_rmw(old)?;
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
                    self.push_event(s, t, e, revisitable);
                    insert_after(&mut s.graph, loc, src, id);
                } else {
                    e.order = Order::from_mem_order(*failure_order);
                    self.push_event(s, t, e, revisitable);
                }
                s.threads[t].resume_cas(old)?;
            }
            _ => return Err(McError::Internal("the pending event is no read".into())),
        }
        s.graph.rf.insert(id, src);
        Ok(if self.advance(s, t)? {
            Performed::Ok
        } else {
            Performed::Infeasible
        })
    }

    /// Every way thread `t` can perform its next event (consistent ones).
    fn successors(&mut self, state: State<'k>, t: usize) -> Result<Vec<State<'k>>, McError> {
        let Status::Ready(ev) = state.status[t].clone() else {
            return Ok(Vec::new());
        };
        let span = ev.span;
        let mut out = Vec::new();
        match &ev.kind {
            EventKind::Load { .. } | EventKind::Rmw { .. } | EventKind::Cas { .. } => {
                let Some((loc, ty)) = self.read_target(&state, t) else {
                    return Err(McError::Internal("no read target".into()));
                };
                let mut s0 = state;
                let init = self.grid.init_value(loc, ty);
                s0.graph.init.entry(loc).or_insert(init);
                let sources = s0.graph.co_sources(loc);
                let mut faulted = false;
                for src in sources {
                    let mut s = s0.clone();
                    match self.perform_read(&mut s, t, src, true)? {
                        Performed::Infeasible => continue,
                        Performed::Fault(kind) => {
                            // The thread faults at the atomic, which is not
                            // performed (whatever it reads: see the docs).
                            if !faulted {
                                faulted = true;
                                let mut s = s0.clone();
                                s.status[t] = Status::Faulted(Fault::new(kind, span));
                                s.fault_loc[t] = Some(loc);
                                out.push(s);
                            }
                        }
                        Performed::Ok => {
                            let id = EventId {
                                thread: t,
                                index: s.graph.events[t].len() - 1,
                            };
                            let update = s.graph.event(id).kind == Kind::Update;
                            if update {
                                self.revisits(&s, id, &mut out)?;
                            }
                            self.keep(s, &mut out);
                        }
                    }
                }
            }
            EventKind::Store { loc, value, access } => {
                let loc = self.grid.loc(t, *loc);
                let (order, scope) = Order::from_access(*access);
                let mut sa = state;
                let init = self.grid.init_value(loc, value.ty());
                sa.graph.init.entry(loc).or_insert(init);
                let id = sa.graph.next_id(t);
                let mut e = self.base_event(&sa, t, Kind::Write, span);
                e.loc = Some(loc);
                e.order = order;
                e.scope = scope;
                e.written_value = Some(*value);
                self.push_event(&mut sa, t, e, true);
                if !self.advance(&mut sa, t)? {
                    return Ok(out);
                }
                let n = sa.graph.co.get(&loc).map_or(0, Vec::len);
                for pos in 0..=n {
                    let mut s = sa.clone();
                    s.graph.co.entry(loc).or_default().insert(pos, id);
                    self.keep(s, &mut out);
                }
                self.revisits(&sa, id, &mut out)?;
            }
            EventKind::Fence { order, scope } => {
                let mut s = state;
                let mut e = self.base_event(&s, t, Kind::Fence, span);
                e.order = Order::from_mem_order(*order);
                e.scope = Some(*scope);
                self.push_event(&mut s, t, e, true);
                if self.advance(&mut s, t)? {
                    self.keep(s, &mut out);
                }
            }
            EventKind::Barrier { barrier, reduce } => {
                let group = self.grid.group(t, *barrier);
                let mut s = state;
                let generation = s.graph.events[t]
                    .iter()
                    .filter(|e| e.barrier.is_some_and(|b| b.group == group))
                    .count() as u32;
                let instance = BarrierInstance { group, generation };
                let mut e = self.base_event(&s, t, Kind::Barrier, span);
                e.order = Order::AcqRel;
                e.barrier = Some(instance);
                self.push_event(&mut s, t, e, true);
                s.status[t] = Status::AtBarrier {
                    instance,
                    reduce: *reduce,
                    span,
                };
                if self.release(&mut s, instance)? {
                    self.keep(s, &mut out);
                }
            }
            EventKind::Havoc { reason, .. } => {
                return Err(McError::Unsupported {
                    what: format!("unknown values ({reason})"),
                    span,
                })
            }
        }
        Ok(out)
    }

    /// The backward revisits of write (or update) `a`, the last event added
    /// to `sa` (a plain write is not yet in `co`; an update is).
    fn revisits(
        &mut self,
        sa: &State<'k>,
        a: EventId,
        out: &mut Vec<State<'k>>,
    ) -> Result<(), McError> {
        // Re-executed updates revisit in turn: a work list, not recursion.
        let mut work = Vec::new();
        self.revisits_of(sa, a, out, &mut work)?;
        while let Some((s, r)) = work.pop() {
            self.revisits_of(&s, r, out, &mut work)?;
        }
        Ok(())
    }

    /// The backward revisits of `a` in `sa`; states whose revisited read
    /// became an update go to `work` too (for that update's revisits).
    fn revisits_of(
        &mut self,
        sa: &State<'k>,
        a: EventId,
        out: &mut Vec<State<'k>>,
        work: &mut Vec<(State<'k>, EventId)>,
    ) -> Result<(), McError> {
        let g = &sa.graph;
        let ae = g.event(a);
        let Some(loc) = ae.loc else {
            return Ok(());
        };
        let plain = ae.kind == Kind::Write;
        let prefix = porf_prefix(g, a);
        let in_prefix = |e: EventId| e.index < prefix[e.thread];
        let candidates: Vec<EventId> = g
            .all_events()
            .filter(|e| {
                e.id != a
                    && e.is_read()
                    && e.loc == Some(loc)
                    && !in_prefix(e.id)
                    && sa.meta(e.id).revisitable
            })
            .map(|e| e.id)
            .collect();
        for r in candidates {
            let rstamp = sa.meta(r).stamp;
            // Kept: added before r, or in porf(a); a itself stays.
            let kept =
                |e: EventId| e == a || (e != r && (sa.meta(e).stamp < rstamp || in_prefix(e)));
            let deleted: Vec<EventId> = g
                .all_events()
                .map(|e| e.id)
                .filter(|e| *e != r && !kept(*e))
                .collect();
            let maximal = std::iter::once(r)
                .chain(deleted.iter().copied())
                .all(|e| self.added_maximally(sa, e, a, &prefix));
            if !maximal {
                continue;
            }
            // The kept events must form a po-prefix of every thread and not
            // read from deleted events or from r (whose value changes); the
            // maximality conditions and revisitability ensure it.
            let closed = g
                .events
                .iter()
                .all(|evs| evs.windows(2).all(|w| kept(w[0].id) || !kept(w[1].id)))
                && g.all_events()
                    .filter(|e| kept(e.id))
                    .all(|e| match g.rf.get(&e.id) {
                        Some(RfSource::Write(w)) => kept(*w) && *w != r,
                        _ => true,
                    });
            if !closed {
                return Err(McError::Internal(
                    "a backward revisit would keep an event whose po-predecessor or source goes"
                        .into(),
                ));
            }
            // Restrict: every thread keeps a po-prefix.
            let mut s = sa.clone();
            let keep: Vec<usize> = (0..g.events.len())
                .map(|t| {
                    if t == r.thread {
                        r.index
                    } else {
                        g.events[t].iter().take_while(|e| kept(e.id)).count()
                    }
                })
                .collect();
            self.restrict(&mut s, &keep);
            for (t, p) in prefix.iter().enumerate() {
                for i in 0..*p {
                    s.meta[t][i].revisitable = false;
                }
            }
            // An update's own read is in the prefix of its write.
            s.meta_mut(a).revisitable = false;
            if plain {
                let n = s.graph.co.get(&loc).map_or(0, Vec::len);
                for pos in 0..=n {
                    let mut s2 = s.clone();
                    s2.graph.co.entry(loc).or_default().insert(pos, a);
                    self.revisit_read(s2, r, a, rstamp, out, work)?;
                }
            } else {
                self.revisit_read(s, r, a, rstamp, out, work)?;
            }
        }
        Ok(())
    }

    /// Re-performs read `r` (its thread restricted to just before it)
    /// reading from `a`; `r` keeps its place `stamp` in the insertion order.
    fn revisit_read(
        &mut self,
        mut s: State<'k>,
        r: EventId,
        a: EventId,
        stamp: u64,
        out: &mut Vec<State<'k>>,
        work: &mut Vec<(State<'k>, EventId)>,
    ) -> Result<(), McError> {
        debug_assert_eq!(s.graph.next_id(r.thread), r);
        match self.perform_read(&mut s, r.thread, RfSource::Write(a), true)? {
            Performed::Ok => {
                s.meta_mut(r).stamp = stamp;
                // A re-executed update writes anew: like the write part of
                // a two-event RMW it may revisit reads in turn.
                if s.graph.event(r).kind == Kind::Update {
                    work.push((s.clone(), r));
                }
                self.keep(s, out)
            }
            Performed::Infeasible | Performed::Fault(_) => {}
        }
        Ok(())
    }

    /// TruSt's `IsMaximallyAdded` for event `e` of a revisit by `a`: with
    /// `E'` the events added up to `e` and `porf(a)`, `e` is a revisitable
    /// read whose source is in `E'` and `co`-maximal there, or a write
    /// `co`-maximal in `E'` (`a` itself is not counted).
    fn added_maximally(&self, sa: &State<'k>, e: EventId, a: EventId, prefix: &[usize]) -> bool {
        let m = sa.meta(e);
        let ev = sa.graph.event(e);
        if ev.is_read() && !m.revisitable {
            return false;
        }
        let in_e = |x: EventId| x.index < prefix[x.thread] || sa.meta(x).stamp <= m.stamp;
        let Some(loc) = ev.loc else {
            return true;
        };
        let hat = match ev.kind {
            Kind::Read | Kind::Update => match sa.graph.rf.get(&e) {
                Some(src) => *src,
                None => return false,
            },
            Kind::Write => RfSource::Write(e),
            Kind::Fence | Kind::Barrier => return true,
        };
        if let RfSource::Write(w) = hat {
            if !in_e(w) {
                return false;
            }
        }
        let co = sa.graph.co.get(&loc).map(Vec::as_slice).unwrap_or(&[]);
        let after: &[EventId] = match hat {
            RfSource::Init => co,
            RfSource::Write(w) => match co.iter().position(|x| *x == w) {
                Some(i) => &co[i + 1..],
                None => &[],
            },
        };
        !after.iter().any(|w| *w != a && *w != e && in_e(*w))
    }

    /// Restricts `s` to the first `keep[t]` events of every thread and
    /// recomputes where every thread is (deterministically: a thread's state
    /// is a function of what its kept events read).
    fn restrict(&self, s: &mut State<'k>, keep: &[usize]) {
        let old_len: Vec<usize> = s.graph.events.iter().map(Vec::len).collect();
        // The paused thread at the first deleted event of every thread.
        let first_deleted: Vec<Option<(Thread<'k>, warpsafe_interp::Event)>> = keep
            .iter()
            .enumerate()
            .map(|(t, k)| s.meta[t].get(*k).map(|m| (m.pre.clone(), m.ev.clone())))
            .collect();
        let kept = |id: &EventId| id.index < keep[id.thread];
        for (t, k) in keep.iter().enumerate() {
            s.graph.events[t].truncate(*k);
            s.meta[t].truncate(*k);
        }
        s.graph.rf.retain(|id, _| kept(id));
        for ws in s.graph.co.values_mut() {
            ws.retain(kept);
        }
        s.graph.co.retain(|_, ws| !ws.is_empty());
        // Barrier instances whose participants all arrived.
        let complete = |g: &Graph, inst: BarrierInstance| {
            (0..g.events.len())
                .filter(|u| self.grid.participates(*u, inst.group))
                .all(|u| g.events[u].iter().any(|e| e.barrier == Some(inst)))
        };
        for (t, first) in first_deleted.into_iter().enumerate() {
            let k = keep[t];
            let last_barrier = k
                .checked_sub(1)
                .and_then(|i| s.graph.events[t][i].barrier.map(|b| (i, b)));
            match (last_barrier, first) {
                (Some((i, inst)), _) if !complete(&s.graph, inst) => {
                    let meta = &s.meta[t][i];
                    let reduce = match &meta.ev.kind {
                        EventKind::Barrier { reduce, .. } => *reduce,
                        _ => None,
                    };
                    s.threads[t] = meta.pre.clone();
                    s.status[t] = Status::AtBarrier {
                        instance: inst,
                        reduce,
                        span: meta.ev.span,
                    };
                    s.fault_loc[t] = None;
                }
                (_, Some((pre, ev))) if k < old_len[t] => {
                    s.threads[t] = pre;
                    s.status[t] = Status::Ready(ev);
                    s.fault_loc[t] = None;
                }
                _ => {}
            }
        }
        let used: std::collections::BTreeSet<Loc> = s
            .graph
            .all_events()
            .filter_map(|e| e.loc)
            .chain(s.fault_loc.iter().flatten().copied())
            .collect();
        s.graph.init.retain(|l, _| used.contains(l));
    }

    /// Releases the threads at `instance` when all participants arrived;
    /// `false` when an `__assume` fails.
    fn release(&mut self, s: &mut State<'k>, instance: BarrierInstance) -> Result<bool, McError> {
        let parts: Vec<usize> = (0..self.grid.ids.len())
            .filter(|u| self.grid.participates(*u, instance.group))
            .collect();
        let mut preds = Vec::new();
        for u in &parts {
            match &s.status[*u] {
                Status::AtBarrier {
                    instance: i,
                    reduce,
                    ..
                } if *i == instance => preds.push(reduce.is_some_and(|(_, p)| p)),
                _ => return Ok(true),
            }
        }
        for u in parts {
            if let Status::AtBarrier {
                reduce: Some((op, _)),
                ..
            } = s.status[u]
            {
                s.threads[u].resume_barrier(reduce_barrier(op, preds.iter().copied()))?;
            }
            if !self.advance(s, u)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

fn dump(s: &State<'_>) -> String {
    let mut o = String::new();
    for (t, evs) in s.graph.events.iter().enumerate() {
        for (i, e) in evs.iter().enumerate() {
            let m = &s.meta[t][i];
            o += &format!(
                "{t}.{i} {:?} {:?} r={:?} w={:?} stamp={} rev={} rf={:?}\n",
                e.kind,
                e.loc.map(|l| l.index),
                e.read_value,
                e.written_value,
                m.stamp,
                m.revisitable,
                s.graph.rf.get(&e.id)
            );
        }
    }
    o += &format!("co {:?}\n", s.graph.co.values().collect::<Vec<_>>());
    o
}

/// Every `rf` source exists; `co` holds existing writes.
fn well_formed(s: &State<'_>) -> bool {
    let exists = |w: &EventId| w.index < s.graph.events[w.thread].len();
    s.graph.rf.iter().all(|(r, src)| {
        exists(r)
            && match src {
                RfSource::Init => true,
                RfSource::Write(w) => exists(w),
            }
    }) && s.graph.co.values().flatten().all(exists)
        && s.meta
            .iter()
            .zip(&s.graph.events)
            .all(|(m, e)| m.len() == e.len())
}

/// Inserts update `id` into `co` right after `src`.
fn insert_after(g: &mut Graph, loc: Loc, src: RfSource, id: EventId) {
    let ws = g.co.entry(loc).or_default();
    let pos = match src {
        RfSource::Init => 0,
        RfSource::Write(w) => ws.iter().position(|x| *x == w).map_or(ws.len(), |i| i + 1),
    };
    ws.insert(pos, id);
}

/// The `porf`-prefix of `a` (strict: without `a`), closed under `po`, `rf`
/// and barrier instances, as the number of events of every thread in it.
fn porf_prefix(g: &Graph, a: EventId) -> Vec<usize> {
    let mut p = vec![0; g.events.len()];
    p[a.thread] = a.index;
    // An update's source is in its prefix.
    if let Some(RfSource::Write(w)) = g.rf.get(&a) {
        p[w.thread] = p[w.thread].max(w.index + 1);
    }
    loop {
        let mut changed = false;
        for t in 0..g.events.len() {
            let mut i = 0;
            while i < p[t] {
                let e = &g.events[t][i];
                if let Some(RfSource::Write(w)) = g.rf.get(&e.id) {
                    if p[w.thread] < w.index + 1 {
                        p[w.thread] = w.index + 1;
                        changed = true;
                    }
                }
                if let Some(inst) = e.barrier {
                    for (u, evs) in g.events.iter().enumerate() {
                        if let Some(f) = evs.iter().find(|f| f.barrier == Some(inst)) {
                            if p[u] < f.id.index + 1 {
                                p[u] = f.id.index + 1;
                                changed = true;
                            }
                        }
                    }
                }
                i += 1;
            }
        }
        if !changed {
            return p;
        }
    }
}
