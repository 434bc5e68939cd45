//! Data races and heterogeneous races of a consistent execution (seed 000
//! §2.1).
//!
//! Two events `a`, `b` of different threads *conflict* when they access the
//! same location and at least one writes (an update writes). Conflicting
//! events that are *concurrent* (neither `a hb b` nor `b hb a`) are in
//!
//! - a **data race** when at least one is non-atomic;
//! - a **heterogeneous race** when both are atomic but not scope-inclusive
//!   (`¬incl(a, b)`: the scope of one does not include the other's thread).
//!
//! Both make the program's behaviour undefined. Races are only meaningful on
//! consistent graphs ([`crate::consistency`]).

use crate::consistency::Relations;
use crate::graph::{Event, EventId, Loc, ThreadId};
use crate::scope;
use warpsafe_ir::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RaceKind {
    Data,
    Heterogeneous,
}

/// One side of a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RaceAccess {
    pub event: EventId,
    pub thread: ThreadId,
    pub span: Span,
    pub is_write: bool,
    pub is_atomic: bool,
}

impl RaceAccess {
    fn of(e: &Event) -> RaceAccess {
        RaceAccess {
            event: e.id,
            thread: e.thread,
            span: e.span,
            is_write: e.is_write(),
            is_atomic: e.is_atomic(),
        }
    }
}

/// A race between `first` and `second` (`first.event < second.event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Race {
    pub kind: RaceKind,
    pub loc: Loc,
    pub first: RaceAccess,
    pub second: RaceAccess,
}

/// The races of the graph of `rel` (which should be consistent).
pub fn races(rel: &Relations<'_>) -> Vec<Race> {
    let g = rel.graph;
    let accesses: Vec<&Event> = g.all_events().filter(|e| e.is_access()).collect();
    let mut out = Vec::new();
    for (i, a) in accesses.iter().enumerate() {
        for b in &accesses[i + 1..] {
            if a.id.thread == b.id.thread
                || a.loc != b.loc
                || !(a.is_write() || b.is_write())
                || rel.hb(a.id, b.id)
                || rel.hb(b.id, a.id)
            {
                continue;
            }
            let kind = if !a.is_atomic() || !b.is_atomic() {
                RaceKind::Data
            } else if !scope::inclusive(a, b) {
                RaceKind::Heterogeneous
            } else {
                continue;
            };
            out.push(Race {
                kind,
                loc: a.loc.expect("accesses have locations"),
                first: RaceAccess::of(a),
                second: RaceAccess::of(b),
            });
        }
    }
    out
}
