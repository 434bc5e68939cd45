//! The errors one execution shows (seed 000 §2.1), as one list: data races
//! and heterogeneous races ([`crate::races`]), assertion violations,
//! barrier divergence (threads left blocked at a barrier when no thread can
//! move), and faults of the thread itself (out-of-bounds indices, division
//! by zero, reads of uninitialised variables), and hangs: a thread that
//! spin-assume stopped in an await loop (`warpsafe_interp::spin`) whose
//! wasted iteration's reads all read the latest value of their locations
//! (the `co`-latest write, or their own when an update is it), when
//! every other thread has finished or is stopped the same way, so no write
//! can ever end the wait (GenMC's liveness check).
//!
//! Each [`Finding`] has a [`FindingKey`] that identifies the error across
//! executions: its kind, the source spans involved (both accesses of a
//! race, in a canonical order) and the memory location (array and index,
//! whatever the block), plus what kind of fault or which assertion. Two
//! executions that show the same error give the same key, which is how
//! `warpsafe explore --all` reports each distinct error once.
//!
//! Invariant: [`findings`] is empty exactly when the execution has no race,
//! no failed assertion, no thread blocked at a barrier, no fault and no
//! thread waiting forever in an await loop.

use crate::graph::{BarrierGroup, BarrierInstance, Event, EventId, RfSource, ThreadId};
use crate::grid::in_group;
use crate::races::{Race, RaceKind};
use crate::reference::{AssertionFailure, Execution, ThreadFault};
use std::fmt;
use warpsafe_interp::BlockReason;
use warpsafe_interp::FaultKind;
use warpsafe_ir::{ArrayId, Span};

/// The kinds of error, as `//xfail:` reasons spell them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    DataRace,
    HeterogeneousRace,
    Assertion,
    BarrierDivergence,
    Fault,
    Hang,
}

impl ErrorKind {
    /// `data-race`, `heterogeneous-race`, `assert`, `barrier-divergence`,
    /// `fault`, `hang`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::DataRace => "data-race",
            ErrorKind::HeterogeneousRace => "heterogeneous-race",
            ErrorKind::Assertion => "assert",
            ErrorKind::BarrierDivergence => "barrier-divergence",
            ErrorKind::Fault => "fault",
            ErrorKind::Hang => "hang",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One error of one execution.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    Race(Race),
    Assertion(AssertionFailure),
    /// Threads blocked at the barrier of `span` at the end of the
    /// execution: some participant never arrived.
    Divergence {
        span: Span,
        threads: Vec<ThreadId>,
        /// The barrier events the threads are blocked at.
        events: Vec<EventId>,
        /// The other threads of the barrier's group, which never arrive.
        missing: Vec<ThreadId>,
    },
    /// Two threads of one block (or of the grid) passed the same barrier
    /// instance at different `__syncthreads()` (or grid sync) statements:
    /// every participant arrived, but CUDA leaves such a barrier undefined,
    /// so it is barrier divergence as much as a thread that never arrives.
    MismatchedBarrier {
        first: BarrierArrival,
        second: BarrierArrival,
    },
    Fault(ThreadFault),
    /// A thread waits forever in the await loop of `span`: the reads of
    /// its wasted iteration (the last is `read`, when it has one) read the
    /// latest writes of their locations and no thread is left to write
    /// again.
    Hang {
        thread: ThreadId,
        span: Span,
        read: Option<EventId>,
    },
}

/// What identifies an error across executions (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FindingKey {
    pub kind: ErrorKind,
    pub spans: (Span, Option<Span>),
    /// Array and index of a race or an out-of-bounds access.
    pub location: Option<(ArrayId, u64)>,
    /// The assertion's message or the fault's kind.
    pub detail: Option<String>,
}

/// One thread's arrival at a barrier statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarrierArrival {
    pub thread: ThreadId,
    pub event: EventId,
    pub span: Span,
}

impl Finding {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Finding::Race(r) if r.kind == RaceKind::Data => ErrorKind::DataRace,
            Finding::Race(_) => ErrorKind::HeterogeneousRace,
            Finding::Assertion(_) => ErrorKind::Assertion,
            Finding::Divergence { .. } | Finding::MismatchedBarrier { .. } => {
                ErrorKind::BarrierDivergence
            }
            Finding::Fault(_) => ErrorKind::Fault,
            Finding::Hang { .. } => ErrorKind::Hang,
        }
    }

    pub fn key(&self) -> FindingKey {
        let kind = self.kind();
        match self {
            Finding::Race(r) => {
                let (a, b) = (r.first.span, r.second.span);
                FindingKey {
                    kind,
                    spans: (a.min(b), Some(a.max(b))),
                    location: Some((r.loc.array, r.loc.index)),
                    detail: None,
                }
            }
            Finding::Assertion(a) => FindingKey {
                kind,
                spans: (a.span, None),
                location: None,
                detail: Some(a.message.clone()),
            },
            Finding::Divergence { span, .. } => FindingKey {
                kind,
                spans: (*span, None),
                location: None,
                detail: None,
            },
            Finding::MismatchedBarrier { first, second } => FindingKey {
                kind,
                spans: (
                    first.span.min(second.span),
                    Some(first.span.max(second.span)),
                ),
                location: None,
                detail: None,
            },
            Finding::Hang { span, .. } => FindingKey {
                kind,
                spans: (*span, None),
                location: None,
                detail: None,
            },
            Finding::Fault(f) => {
                let (class, location) = fault_class(&f.fault.kind);
                FindingKey {
                    kind,
                    spans: (f.fault.span, None),
                    location,
                    detail: Some(class),
                }
            }
        }
    }

    /// The events of the execution the error is about (the two accesses of
    /// a race, the barriers of blocked threads).
    pub fn events(&self) -> Vec<EventId> {
        match self {
            Finding::Race(r) => vec![r.first.event, r.second.event],
            Finding::Divergence { events, .. } => events.clone(),
            Finding::MismatchedBarrier { first, second } => vec![first.event, second.event],
            Finding::Hang { read, .. } => read.iter().copied().collect(),
            Finding::Assertion(_) | Finding::Fault(_) => Vec::new(),
        }
    }

    /// The threads involved.
    pub fn threads(&self) -> Vec<ThreadId> {
        match self {
            Finding::Race(r) => vec![r.first.thread, r.second.thread],
            Finding::Assertion(a) => vec![a.thread],
            Finding::Divergence { threads, .. } => threads.clone(),
            Finding::MismatchedBarrier { first, second } => vec![first.thread, second.thread],
            Finding::Fault(f) => vec![f.thread],
            Finding::Hang { thread, .. } => vec![*thread],
        }
    }
}

/// A fault's kind without the values that vary between threads (the
/// index), and the array it concerns.
fn fault_class(kind: &FaultKind) -> (String, Option<(ArrayId, u64)>) {
    match kind {
        FaultKind::OutOfBounds { array, .. } | FaultKind::NegativeIndex { array, .. } => {
            ("out-of-bounds".into(), Some((*array, 0)))
        }
        FaultKind::UninitialisedMemory { array, .. } => {
            ("uninitialised-read".into(), Some((*array, 0)))
        }
        FaultKind::UninitialisedVariable(v) => (format!("uninitialised-variable {}", v.0), None),
        FaultKind::DivisionByZero => ("division-by-zero".into(), None),
        other => {
            // The variant's name: the text up to its first field.
            let debug = format!("{other:?}");
            let name = debug
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("fault")
                .to_string();
            (name, None)
        }
    }
}

/// Every error of `exec`: races, failed assertions, divergent barriers
/// (one finding per barrier, with every thread blocked at it), faults.
pub fn findings(exec: &Execution) -> Vec<Finding> {
    let mut out: Vec<Finding> = exec.races.iter().copied().map(Finding::Race).collect();
    out.extend(
        exec.assertion_failures
            .iter()
            .cloned()
            .map(Finding::Assertion),
    );
    let g = &exec.graph;
    let mut barriers: Vec<Finding> = Vec::new();
    for (thread, span) in &exec.blocked {
        // The barrier a blocked thread waits at is its last event.
        let last = g
            .threads
            .iter()
            .position(|x| x == thread)
            .and_then(|t| g.events[t].last())
            .filter(|e| e.barrier.is_some());
        let found = barriers.iter_mut().find(|b| match b {
            Finding::Divergence { span: s, .. } => s == span,
            _ => false,
        });
        match found {
            Some(Finding::Divergence {
                threads,
                events,
                missing,
                ..
            }) => {
                threads.push(*thread);
                events.extend(last.map(|e| e.id));
                missing.retain(|m| m != thread);
            }
            _ => {
                let missing = last
                    .and_then(|e| e.barrier)
                    .map(|inst| {
                        g.threads
                            .iter()
                            .enumerate()
                            .filter(|(t, id)| {
                                // Not at this barrier statement (elsewhere,
                                // or at another one of the same instance).
                                in_group(**id, inst.group)
                                    && !g.events[*t]
                                        .iter()
                                        .any(|e| e.barrier == Some(inst) && e.span == *span)
                            })
                            .map(|(_, id)| *id)
                            .collect()
                    })
                    .unwrap_or_default();
                barriers.push(Finding::Divergence {
                    span: *span,
                    threads: vec![*thread],
                    events: last.map(|e| e.id).into_iter().collect(),
                    missing,
                });
            }
        }
    }
    out.extend(barriers);
    let g = &exec.graph;
    out.extend(mismatched_barriers(g.events.iter().enumerate().flat_map(
        |(t, events)| events.iter().map(move |e| (g.threads[t], e)),
    )));
    out.extend(exec.faults.iter().cloned().map(Finding::Fault));
    out.extend(hangs(exec));
    out
}

/// One finding per block or grid barrier instance whose participants
/// arrived at different statements (warp and tile barriers may be reached
/// from different statements since Volta: not an error), over an
/// execution's events (each with its thread) in thread and program order.
pub(crate) fn mismatched_barriers<'e>(
    events: impl Iterator<Item = (ThreadId, &'e Event)>,
) -> Vec<Finding> {
    let mut first: Vec<(BarrierInstance, BarrierArrival)> = Vec::new();
    let mut out = Vec::new();
    let mut reported: Vec<BarrierInstance> = Vec::new();
    for (thread, e) in events {
        let Some(inst) = e.barrier else { continue };
        if !matches!(inst.group, BarrierGroup::Block { .. } | BarrierGroup::Grid) {
            continue;
        }
        let here = BarrierArrival {
            thread,
            event: e.id,
            span: e.span,
        };
        match first.iter().find(|(i, _)| *i == inst) {
            None => first.push((inst, here)),
            Some((_, a)) if a.span != e.span && !reported.contains(&inst) => {
                reported.push(inst);
                out.push(Finding::MismatchedBarrier {
                    first: *a,
                    second: here,
                });
            }
            Some(_) => {}
        }
    }
    out
}

/// The threads of `exec` that wait forever in an await loop (see the
/// module docs). A thread cut at the loop bound, or stopped on a read of
/// an older value than the latest, may still go on and write, so then
/// nothing is a hang.
fn hangs(exec: &Execution) -> Vec<Finding> {
    if exec.hit_loop_bound() {
        return Vec::new();
    }
    let g = &exec.graph;
    let mut out = Vec::new();
    for c in &exec.cut {
        let (Some(t), BlockReason::SpinLoop { reads }) =
            (g.threads.iter().position(|x| *x == c.thread), c.reason)
        else {
            return Vec::new();
        };
        // The wasted iteration's reads are the thread's last `reads` ones;
        // an iteration without a read loops forever whatever memory holds.
        let mut iteration = g.events[t]
            .iter()
            .rev()
            .filter(|e| e.is_read())
            .take(reads as usize)
            .peekable();
        let last = iteration.peek().map(|r| r.id);
        let stale = iteration.any(|r| {
            let (Some(loc), Some(src)) = (r.loc, g.rf.get(&r.id)) else {
                return false;
            };
            let latest =
                g.co.get(&loc)
                    .and_then(|ws| ws.last())
                    .map_or(RfSource::Init, |w| RfSource::Write(*w));
            !reads_latest(r.id, *src, latest)
        });
        if stale {
            // This thread reads a newer value later (fairness), and may
            // then write what the others wait for: not a final state.
            return Vec::new();
        }
        out.push(Finding::Hang {
            thread: c.thread,
            span: c.span,
            read: last,
        });
    }
    out
}

/// Whether `read`, reading from `src`, saw the latest value of its
/// location, whose `co`-last write is `latest`: it read from that write,
/// or it is that write itself (an idle update of a wasted iteration
/// writes back the value it read, so memory still holds what it saw).
pub(crate) fn reads_latest(read: EventId, src: RfSource, latest: RfSource) -> bool {
    src == latest || latest == RfSource::Write(read)
}
