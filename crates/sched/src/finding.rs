//! What one schedule shows: errors ([`Finding`]), warnings, and why a run
//! stopped before the kernel ended ([`Cut`]).
//!
//! Error kinds are the model checker's ([`ErrorKind`], spelled as
//! `//xfail:` reasons), so corpus headers serve both explorers.

use crate::shadow::Access;
use warpsafe_interp::Fault;
use warpsafe_ir::{ArrayId, Span};
use warpsafe_mc::{ErrorKind, Loc, RaceKind, ThreadId};

/// One error of a schedule.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    /// Two accesses of different threads to `loc`, one writing, that
    /// nothing orders (`first` ran first).
    Race {
        kind: RaceKind,
        loc: Loc,
        first: Access,
        second: Access,
    },
    Assertion {
        thread: ThreadId,
        message: String,
        span: Span,
    },
    /// Undefined behaviour in one thread (out of bounds, division by
    /// zero, ...).
    Fault { thread: ThreadId, fault: Fault },
    /// Threads wait at the barrier of `span` that `missing` never reach
    /// (they ended, or wait at another barrier, `other`).
    Divergence {
        span: Span,
        waiting: Vec<ThreadId>,
        missing: Vec<ThreadId>,
        /// Where the first missing thread waits instead, if at a barrier.
        other: Option<Span>,
    },
    /// Threads spin in await loops that no thread left can release
    /// (`span`: the first one's loop).
    Hang {
        span: Span,
        threads: Vec<(ThreadId, Span)>,
    },
}

impl Finding {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Finding::Race {
                kind: RaceKind::Data,
                ..
            } => ErrorKind::DataRace,
            Finding::Race {
                kind: RaceKind::Heterogeneous,
                ..
            } => ErrorKind::HeterogeneousRace,
            Finding::Assertion { .. } => ErrorKind::Assertion,
            Finding::Fault { .. } => ErrorKind::Fault,
            Finding::Divergence { .. } => ErrorKind::BarrierDivergence,
            Finding::Hang { .. } => ErrorKind::Hang,
        }
    }

    /// What identifies the error across schedules: its kind, the source
    /// it points at, and for a race the array (one helper's store can race
    /// on two arrays).
    pub fn key(&self) -> FindingKey {
        let kind = self.kind();
        let (span, other, array) = match self {
            Finding::Race {
                first, second, loc, ..
            } => {
                let (a, b) = if first.span <= second.span {
                    (first.span, second.span)
                } else {
                    (second.span, first.span)
                };
                (a, Some(b), Some(loc.array))
            }
            Finding::Assertion { span, .. } => (*span, None, None),
            Finding::Fault { fault, .. } => (fault.span, None, None),
            Finding::Divergence { span, other, .. } => (*span, *other, None),
            Finding::Hang { span, .. } => (*span, None, None),
        };
        FindingKey {
            kind,
            span,
            other,
            array,
        }
    }
}

/// What identifies an error across schedules ([`Finding::key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FindingKey {
    pub kind: ErrorKind,
    /// The source it points at first.
    pub span: Span,
    pub other: Option<Span>,
    /// A race's array.
    pub array: Option<ArrayId>,
}

/// Something worth knowing that is no error of the kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A `__shared__` slot read before any thread of its block wrote it
    /// (its value is whatever the memory held; the run used zero).
    UninitialisedRead {
        thread: ThreadId,
        span: Span,
        loc: Loc,
    },
    /// A value the interpreter cannot know (`clock()`, a texture read):
    /// the run used zero.
    UnknownValue { span: Span, reason: String },
}

/// Why a schedule stopped before every thread ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Cut {
    /// A thread ran `limit` interpreter steps without ending (a
    /// non-terminating loop, or a kernel too long for `--max-steps`).
    StepLimit {
        thread: ThreadId,
        limit: u64,
        span: Span,
    },
    /// An `__assume`/`__requires` does not hold for this launch.
    Infeasible { thread: ThreadId, span: Span },
    /// The time limit passed during the run.
    TimedOut,
}
