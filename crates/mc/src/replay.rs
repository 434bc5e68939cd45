//! Replaying one execution from its [`ReplayToken`]: the interpreter
//! threads are run again, every read returning the value of the write the
//! token names, and the graph they produce is rebuilt, given the token's
//! `co`, checked for consistency and returned as the [`Execution`] the
//! explorer reported.
//!
//! Seed 000 §3: an execution graph is its events, `rf` and `co`, and a
//! thread's events are a function of what its reads return, so the `rf`
//! choices determine every event; the token adds the `co` orders. Any
//! order of running the threads in which each read comes after the write
//! it reads from gives the same graph (event identities are thread and
//! program-order index); the driver repeatedly runs every thread as far as
//! its next read's source allows, which finds such an order whenever one
//! exists (by (No-Thin-Air), `po ∪ rf ∪ bar` is acyclic in a consistent
//! execution).
//!
//! Events are built exactly as [`crate::dpor`] and [`crate::reference`]
//! build them (kinds, orders, scopes, barrier instances, initial values;
//! an RMW whose operation faults faults without an event), so that the
//! replayed graph equals the explored one (`tests/replay.rs`).
//!
//! Invariant: [`replay`] returns an execution only when the token fits the
//! kernel and launch (same fingerprint, every read's source an existing
//! write to its location, every write placed in `co` exactly once) and the
//! rebuilt graph is consistent; anything else is a [`ReplayError`].

use crate::consistency;
use crate::graph::{BarrierInstance, Event, EventId, Graph, Loc, RfSource};
use crate::grid::{complete_read, reinterpret, source, status_after, Grid, Pending, Status};
use crate::reference::{Config, Execution, McError};
use crate::token::{fingerprint, ReplayToken, TokenError};
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;
use warpsafe_interp::{apply_rmw, EventKind, Fault, Launch, Thread};
use warpsafe_ir::{Kernel, ScalarTy};

/// Why a token cannot be replayed.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ReplayError {
    #[error(transparent)]
    Token(#[from] TokenError),
    #[error("the replay token was made for another kernel or launch (a different kernel, grid, parameter values, or an edited file)")]
    Mismatch,
    #[error("the replay token does not fit the kernel: {0}")]
    Diverged(String),
    #[error("the replayed execution is not consistent under scoped RC11 (violates {0})")]
    Inconsistent(String),
    #[error(transparent)]
    Mc(#[from] McError),
}

/// Whether `token` was made for `kernel` under `launch`.
pub fn fits(kernel: &Kernel, launch: &Launch, token: &ReplayToken) -> bool {
    token.fingerprint == fingerprint(kernel, launch)
}

/// Re-runs the execution `token` describes.
pub fn replay(
    kernel: &Kernel,
    launch: &Launch,
    config: &Config,
    token: &ReplayToken,
) -> Result<Execution, ReplayError> {
    if !fits(kernel, launch, token) {
        return Err(ReplayError::Mismatch);
    }
    let (grid, threads) = Grid::start(kernel, launch, config)?;
    let n = grid.ids.len();
    if token.reads.len() != n {
        return Err(ReplayError::Diverged(format!(
            "it has {} threads, the launch {n}",
            token.reads.len()
        )));
    }
    let mut r = Replayer {
        graph: Graph::new(grid.ids.clone()),
        grid,
        threads,
        status: vec![Status::Done; n],
        next_read: vec![0; n],
        token,
    };
    for t in 0..n {
        r.advance(t)?;
    }
    loop {
        let mut progressed = false;
        for t in 0..n {
            while r.step(t)? {
                progressed = true;
            }
        }
        if !progressed {
            break;
        }
    }
    if let Some(t) = (0..n).find(|t| matches!(r.status[*t], Status::Ready(_))) {
        return Err(ReplayError::Diverged(format!(
            "{} waits for a write that never happens",
            r.grid.ids[t]
        )));
    }
    for t in 0..n {
        if r.next_read[t] != token.reads[t].len() {
            return Err(ReplayError::Diverged(format!(
                "{} performs {} reads, the token has {}",
                r.grid.ids[t],
                r.next_read[t],
                token.reads[t].len()
            )));
        }
    }
    r.graph.co = co_of(&r.graph, token)?;
    if let Err(v) = consistency::check(&r.graph, config.model) {
        return Err(ReplayError::Inconsistent(v.axiom.to_string()));
    }
    let Replayer {
        grid,
        graph,
        status,
        ..
    } = r;
    Ok(grid.execution(graph, &status, config))
}

/// The token's `co`, checked against the replayed writes.
fn co_of(g: &Graph, token: &ReplayToken) -> Result<BTreeMap<Loc, Vec<EventId>>, ReplayError> {
    let diverged = |m: &str| Err(ReplayError::Diverged(m.to_string()));
    let exists = |w: &EventId| w.thread < g.events.len() && w.index < g.events[w.thread].len();
    let mut co = BTreeMap::new();
    let mut placed = BTreeSet::new();
    for ws in &token.co {
        let Some(first) = ws.first().filter(|w| exists(w)) else {
            return diverged("a coherence order names a write that does not happen");
        };
        let Some(loc) = g.event(*first).loc else {
            return diverged("a coherence order names an event that is not a write");
        };
        for w in ws {
            if !exists(w) || !g.event(*w).is_write() || g.event(*w).loc != Some(loc) {
                return diverged("a coherence order mixes locations or names a non-write");
            }
            if !placed.insert(*w) {
                return diverged("a write appears twice in the coherence orders");
            }
        }
        if co.insert(loc, ws.clone()).is_some() {
            return diverged("a location has two coherence orders");
        }
    }
    if g.all_events()
        .any(|e| e.is_write() && !placed.contains(&e.id))
    {
        return diverged("a write is missing from the coherence orders");
    }
    Ok(co)
}

struct Replayer<'k, 't> {
    grid: Grid<'k>,
    threads: Vec<Thread<'k>>,
    status: Vec<Status>,
    graph: Graph,
    /// Per thread, how many of its token reads were performed.
    next_read: Vec<usize>,
    token: &'t ReplayToken,
}

impl<'k> Replayer<'k, '_> {
    /// Runs thread `t` to its next event.
    fn advance(&mut self, t: usize) -> Result<(), ReplayError> {
        let status = status_after(self.threads[t].step(), self.grid.ids[t])?;
        if matches!(status, Status::Infeasible) {
            return Err(ReplayError::Diverged(format!(
                "an `__assume` fails in {}",
                self.grid.ids[t]
            )));
        }
        self.status[t] = status;
        Ok(())
    }

    /// Performs thread `t`'s pending event if it can be now; whether it did.
    fn step(&mut self, t: usize) -> Result<bool, ReplayError> {
        let Status::Ready(ev) = self.status[t].clone() else {
            return Ok(false);
        };
        let id = self.graph.next_id(t);
        match self.grid.pending(t, id, &self.threads[t], &ev)? {
            Pending::Read { event, loc, ty } => return self.read(t, &ev, event, loc, ty),
            Pending::Write { event: e, loc, ty } => {
                let init = self.grid.init_value(loc, ty);
                self.graph.init.entry(loc).or_insert(init);
                self.graph.push(e);
                self.advance(t)?;
            }
            Pending::Fence(e) => {
                self.graph.push(e);
                self.advance(t)?;
            }
            Pending::Barrier {
                mut event,
                group,
                reduce,
                site,
            } => {
                let generation = self.graph.events[t]
                    .iter()
                    .filter(|e| e.barrier.is_some_and(|b| b.group == group))
                    .count() as u32;
                let instance = BarrierInstance { group, generation };
                event.barrier = Some(instance);
                self.graph.push(event);
                self.status[t] = Status::AtBarrier {
                    instance,
                    reduce,
                    span: ev.span,
                    site,
                };
                self.release(instance)?;
            }
        }
        Ok(true)
    }

    /// Performs a load, RMW or CAS (`e`, reading `loc` at `ty`) from the
    /// token's next source for `t`, when that source was already replayed.
    fn read(
        &mut self,
        t: usize,
        ev: &warpsafe_interp::Event,
        mut e: Event,
        loc: Loc,
        ty: ScalarTy,
    ) -> Result<bool, ReplayError> {
        let Some(src) = self.token.reads[t].get(self.next_read[t]).copied() else {
            // No recorded source: only an RMW whose operation faults (on
            // any value, see `crate::dpor`) performs no read.
            if let EventKind::Rmw { op, operand, .. } = &ev.kind {
                let init = self.grid.init_value(loc, ty);
                if let Err(kind) = apply_rmw(*op, init, *operand) {
                    self.graph.init.entry(loc).or_insert(init);
                    self.status[t] = Status::Faulted(Fault::new(kind, ev.span));
                    return Ok(true);
                }
            }
            return Err(ReplayError::Diverged(format!(
                "{} performs more reads than the token has",
                self.grid.ids[t]
            )));
        };
        if let RfSource::Write(w) = src {
            if w.index >= self.graph.events[w.thread].len() {
                return Ok(false);
            }
            let we = self.graph.event(w);
            if !we.is_write() || we.loc != Some(loc) {
                return Err(ReplayError::Diverged(format!(
                    "a read of {} reads from an event that does not write there",
                    self.grid.ids[t]
                )));
            }
        }
        let init = self.grid.init_value(loc, ty);
        self.graph.init.entry(loc).or_insert(init);
        let old = reinterpret(source(&self.graph, loc, src)?, ty);
        let id = e.id;
        e.read_value = Some(old);
        if let Err(k) = complete_read(&mut e, &ev.kind, old)? {
            return Err(ReplayError::Diverged(format!(
                "the atomic of {} faults ({k})",
                e.thread
            )));
        }
        self.graph.push(e);
        let resumed = match &ev.kind {
            EventKind::Load { .. } => self.threads[t].resume_load(old),
            EventKind::Rmw { .. } => self.threads[t].resume_rmw(old),
            _ => self.threads[t].resume_cas(old),
        };
        resumed.map_err(McError::from)?;
        self.graph.rf.insert(id, src);
        self.next_read[t] += 1;
        self.advance(t)?;
        Ok(true)
    }

    /// Releases the threads at `instance` when all participants arrived.
    fn release(&mut self, instance: BarrierInstance) -> Result<(), ReplayError> {
        let Some(plan) = self.grid.release_plan(instance, |u| &self.status[u]) else {
            return Ok(());
        };
        for (u, reduced) in plan {
            if let Some(v) = reduced {
                self.threads[u].resume_barrier(v).map_err(McError::from)?;
            }
            self.advance(u)?;
        }
        Ok(())
    }
}
