//! One thread's events performed on the memory of a schedule: values read
//! and written, the race check, synchronisation, and the conflicts that
//! become delay points (seed 003 §4's `rwOf`, `add` and `rec`).
//!
//! Atomic accesses (volatile ones as relaxed system-scope atomics, as the
//! model checker reads them) are numbered per thread; that number names
//! them as delay points ([`crate::delay`]).

use crate::clock::{Stamp, ThreadClock};
use crate::delay::{Conflicts, DelayPoint};
use crate::finding::{Finding, FindingKey, Warning};
use crate::memory::Memory;
use crate::shadow::Access;
use crate::sync::{acquires, releases, Publication};
use crate::SchedError;
use rustc_hash::FxHashSet;
use warpsafe_interp::{
    apply_rmw, cas_result, cas_succeeds, Awaiting, Barrier, Event, EventKind, Fault, Launch,
    Location, StmtSite, Thread, Value,
};
use warpsafe_ir::{AccessKind, Kernel, MemOrder, ReduceOp, Scope, Span};
use warpsafe_mc::{Loc, RaceKind, ThreadId};

/// A thread of a running block.
pub(crate) struct Slot<'k> {
    pub thread: Thread<'k>,
    pub id: ThreadId,
    /// Linear index in the grid.
    pub linear: u32,
    pub state: SlotState,
    /// Atomic accesses performed so far: the `op` of the next one.
    pub atomics: u32,
    pub clock: ThreadClock,
    /// What the thread's last release fence published.
    pub fence_release: Option<Publication>,
    /// Publications read by relaxed atomics, learnt at an acquire fence.
    pub pending_acquire: Vec<Publication>,
    /// Memory's change count when the thread last yielded in a spin loop
    /// or was delayed: it runs again once the count moved.
    pub yielded_at: Option<u64>,
    /// It was delayed (not spinning) when it last stopped.
    pub delayed: bool,
}

pub(crate) enum SlotState {
    /// Runs when scheduled.
    Running,
    /// Delayed before this event, performed when it runs again.
    Pending(Event),
    AtBarrier(Arrival),
    /// Ended: `true` when by an error (assertion, fault), whose block's
    /// waiting threads are then no barrier divergence of their own.
    Ended {
        failed: bool,
    },
}

/// A thread's arrival at a barrier.
#[derive(Clone, Debug)]
pub(crate) struct Arrival {
    pub barrier: Barrier,
    pub site: StmtSite,
    pub iterations: Vec<u32>,
    pub reduce: Option<(ReduceOp, bool)>,
    pub span: Span,
}

/// The errors and warnings of one schedule, each once.
pub(crate) struct Report {
    pub findings: Vec<Finding>,
    keys: FxHashSet<FindingKey>,
    pub warnings: Vec<Warning>,
    warned: FxHashSet<Span>,
    max: usize,
}

impl Report {
    pub fn new(max: usize) -> Report {
        Report {
            findings: Vec::new(),
            keys: FxHashSet::default(),
            warnings: Vec::new(),
            warned: FxHashSet::default(),
            max,
        }
    }

    pub fn add(&mut self, f: Finding) {
        if self.findings.len() < self.max && self.keys.insert(f.key()) {
            self.findings.push(f);
        }
    }

    fn warn(&mut self, span: Span, w: impl FnOnce() -> Warning) {
        if self.warned.len() < self.max && self.warned.insert(span) {
            self.warnings.push(w());
        }
    }
}

/// What a thread's event needs of the schedule.
pub(crate) struct Cx<'a, 'k> {
    pub kernel: &'k Kernel,
    pub launch: &'a Launch,
    pub mem: &'a mut Memory<'k>,
    pub report: &'a mut Report,
    /// Conflicts are recorded once the schedule took all its delays.
    pub conflicts: Option<&'a mut Conflicts>,
    pub block_epoch: u32,
    pub grid_epoch: u32,
}

/// What performing an event led to.
pub(crate) enum Performed {
    Continue,
    Arrived(Arrival),
    /// The thread faulted inside the event.
    Ended,
}

/// Whether `ev` is an atomic access (a possible delay point).
pub(crate) fn is_atomic(ev: &EventKind) -> bool {
    match ev {
        EventKind::Load { access, .. } | EventKind::Store { access, .. } => {
            !matches!(access, AccessKind::Plain)
        }
        EventKind::Rmw { .. } | EventKind::Cas { .. } => true,
        _ => false,
    }
}

/// The order and scope of an atomic access; `None` for a plain one.
fn atomic_of(access: AccessKind) -> Option<(MemOrder, Scope)> {
    match access {
        AccessKind::Plain => None,
        AccessKind::Volatile => Some((MemOrder::Relaxed, Scope::System)),
        AccessKind::Atomic { order, scope } => Some((order, scope)),
    }
}

impl<'k> Slot<'k> {
    /// Performs `ev`, this thread's next event.
    pub fn perform(&mut self, ev: Event, cx: &mut Cx<'_, 'k>) -> Result<Performed, SchedError> {
        let span = ev.span;
        match ev.kind {
            EventKind::Load { loc, ty, access } => {
                let l = self.loc(cx.kernel, loc);
                if cx.mem.uninitialised_shared(l) {
                    let thread = self.id;
                    cx.report.warn(span, || Warning::UninitialisedRead {
                        thread,
                        span,
                        loc: l,
                    });
                }
                let v = cx.mem.read(cx.launch, l, ty);
                let atomic = atomic_of(access);
                self.check(cx, l, span, atomic.map(|a| a.1), false);
                if let Some((order, scope)) = atomic {
                    self.acquire_from(cx, l, order, scope);
                    self.atomic(cx, l, false);
                }
                self.thread.resume_load(v).map_err(internal)?;
            }
            EventKind::Store { loc, value, access } => {
                let l = self.loc(cx.kernel, loc);
                let atomic = atomic_of(access);
                self.check(cx, l, span, atomic.map(|a| a.1), true);
                cx.mem.write(cx.launch, l, value);
                match atomic {
                    None => cx.mem.cell(l).released.plain_write(),
                    Some((order, scope)) => {
                        let own = self.publications(order, scope, cx.block_epoch);
                        cx.mem.cell(l).released.atomic_write(self.id, false, own);
                        self.atomic(cx, l, true);
                    }
                }
            }
            EventKind::Rmw {
                loc,
                op,
                operand,
                order,
                scope,
            } => {
                let l = self.loc(cx.kernel, loc);
                let ty = match self.thread.awaiting() {
                    Some(Awaiting::Rmw { ty }) => ty,
                    other => return Err(SchedError::Internal(format!("RMW awaits {other:?}"))),
                };
                let old = cx.mem.read(cx.launch, l, ty);
                let new = match apply_rmw(op, old, operand) {
                    Ok(v) => v,
                    Err(kind) => return Ok(self.fault(cx, Fault::new(kind, span))),
                };
                self.update(cx, l, span, order, scope, new);
                self.thread.resume_rmw(old).map_err(internal)?;
            }
            EventKind::Cas {
                loc,
                expected,
                desired,
                order,
                failure_order,
                scope,
            } => {
                let l = self.loc(cx.kernel, loc);
                let ty = match self.thread.awaiting() {
                    Some(Awaiting::Cas { ty }) => ty,
                    other => return Err(SchedError::Internal(format!("CAS awaits {other:?}"))),
                };
                let old = cx.mem.read(cx.launch, l, ty);
                if cas_succeeds(old, expected) {
                    let new = cas_result(old, expected, desired);
                    self.update(cx, l, span, order, scope, new);
                } else {
                    // A failed compare-and-swap is a read (seed 000 §3).
                    self.check(cx, l, span, Some(scope), false);
                    self.acquire_from(cx, l, failure_order, scope);
                    self.atomic(cx, l, false);
                }
                self.thread.resume_cas(old).map_err(internal)?;
            }
            EventKind::Fence { order, scope } => {
                if releases(order) {
                    let vc = self
                        .clock
                        .release(self.linear, self.id.block, cx.block_epoch);
                    self.fence_release = Some(Publication {
                        thread: self.id,
                        scope,
                        vc,
                    });
                }
                if acquires(order) {
                    let id = self.id;
                    let clock = &mut self.clock;
                    self.pending_acquire.retain(|p| {
                        let reaches = p.reaches(id, scope);
                        if reaches {
                            clock.vc.join(&p.vc);
                        }
                        !reaches
                    });
                }
            }
            EventKind::Barrier {
                barrier,
                reduce,
                iterations,
            } => {
                return Ok(Performed::Arrived(Arrival {
                    barrier,
                    site: ev.site,
                    iterations,
                    reduce,
                    span,
                }))
            }
            EventKind::Havoc { ty, reason, .. } => {
                cx.report
                    .warn(span, || Warning::UnknownValue { span, reason });
                self.thread
                    .resume_havoc(Value::zero(ty))
                    .map_err(internal)?;
            }
        }
        Ok(Performed::Continue)
    }

    /// The location of `loc` for this thread (`__shared__` slots are its
    /// block's).
    fn loc(&self, kernel: &Kernel, loc: Location) -> Loc {
        warpsafe_mc::location(kernel, self.id.block, loc)
    }

    /// An RMW or a successful compare-and-swap writing `new`.
    fn update(
        &mut self,
        cx: &mut Cx<'_, 'k>,
        l: Loc,
        span: Span,
        order: MemOrder,
        scope: Scope,
        new: Value,
    ) {
        self.check(cx, l, span, Some(scope), true);
        self.acquire_from(cx, l, order, scope);
        cx.mem.write(cx.launch, l, new);
        let own = self.publications(order, scope, cx.block_epoch);
        cx.mem.cell(l).released.atomic_write(self.id, true, own);
        self.atomic(cx, l, true);
    }

    /// The race check of an access now.
    fn check(&self, cx: &mut Cx<'_, 'k>, l: Loc, span: Span, atomic: Option<Scope>, write: bool) {
        let a = Access {
            stamp: Stamp {
                thread: self.linear,
                block: self.id.block,
                clock: self.clock.clock,
                block_epoch: cx.block_epoch,
                grid_epoch: cx.grid_epoch,
            },
            thread: self.id,
            span,
            atomic,
            write,
        };
        let report = &mut *cx.report;
        cx.mem.cell(l).shadow.access(
            a,
            &self.clock.vc,
            &mut |kind: RaceKind, earlier: &Access| {
                report.add(Finding::Race {
                    kind,
                    loc: l,
                    first: *earlier,
                    second: a,
                })
            },
        );
    }

    /// An atomic read of `l` with `order` and `scope` learns what the
    /// value's writes published (or keeps it for an acquire fence).
    fn acquire_from(&mut self, cx: &mut Cx<'_, 'k>, l: Loc, order: MemOrder, scope: Scope) {
        let cell = cx.mem.cell(l);
        for p in cell.released.publications() {
            if !p.reaches(self.id, scope) {
                continue;
            }
            if acquires(order) {
                self.clock.vc.join(&p.vc);
            } else if let Some(q) = self
                .pending_acquire
                .iter_mut()
                .find(|q| q.thread == p.thread && q.scope == p.scope)
            {
                q.vc.join(&p.vc);
            } else {
                self.pending_acquire.push(p.clone());
            }
        }
    }

    /// What an atomic write of `order` and `scope` publishes.
    fn publications(
        &mut self,
        order: MemOrder,
        scope: Scope,
        block_epoch: u32,
    ) -> Vec<Publication> {
        let mut out: Vec<Publication> = self.fence_release.iter().cloned().collect();
        if releases(order) {
            let vc = self.clock.release(self.linear, self.id.block, block_epoch);
            out.push(Publication {
                thread: self.id,
                scope,
                vc,
            });
        }
        out
    }

    /// Counts an atomic access and records its conflicts.
    fn atomic(&mut self, cx: &mut Cx<'_, 'k>, l: Loc, write: bool) {
        if let Some(c) = cx.conflicts.as_deref_mut() {
            c.access(
                l,
                DelayPoint {
                    thread: self.linear,
                    op: self.atomics,
                },
                write,
            );
        }
        self.atomics += 1;
    }

    /// The thread faulted: an error, and it ends.
    fn fault(&mut self, cx: &mut Cx<'_, 'k>, fault: Fault) -> Performed {
        cx.report.add(Finding::Fault {
            thread: self.id,
            fault,
        });
        self.state = SlotState::Ended { failed: true };
        Performed::Ended
    }
}

fn internal(e: warpsafe_interp::ResumeError) -> SchedError {
    SchedError::Internal(e.to_string())
}
