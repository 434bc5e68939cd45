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
use crate::graph::{Event, EventId, Graph, Loc, ThreadId};
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
    races_by(rel.graph, |a, b| rel.hb(a, b))
}

/// The races of `g` (which should be consistent), given its `hb` relation
/// as a function (`hb(a, b)`: `a` happens before `b`).
pub fn races_by(g: &Graph, hb: impl Fn(EventId, EventId) -> bool) -> Vec<Race> {
    // Accesses grouped by location; pairs only within a group.
    let mut accesses: Vec<&Event> = g.all_events().filter(|e| e.is_access()).collect();
    accesses.sort_by_key(|e| (e.loc, e.id));
    let mut out = Vec::new();
    for group in accesses.chunk_by(|a, b| a.loc == b.loc) {
        races_at(group, &hb, &mut out);
    }
    // In the order of the events (thread, then program order).
    out.sort_by_key(|r| (r.first.event, r.second.event));
    out
}

/// The races among `group`, accesses to one location in event order,
/// into `out`.
pub(crate) fn races_at(
    group: &[&Event],
    hb: &impl Fn(EventId, EventId) -> bool,
    out: &mut Vec<Race>,
) {
    if !group.iter().any(|e| e.is_write()) {
        return;
    }
    for (i, a) in group.iter().enumerate() {
        for b in &group[i + 1..] {
            if !may_race(a, b) || hb(a.id, b.id) || hb(b.id, a.id) {
                continue;
            }
            out.push(Race {
                kind: if !a.is_atomic() || !b.is_atomic() {
                    RaceKind::Data
                } else {
                    RaceKind::Heterogeneous
                },
                loc: a.loc.expect("accesses have locations"),
                first: RaceAccess::of(a),
                second: RaceAccess::of(b),
            });
        }
    }
}

/// Whether accesses `a` and `b` (to one location) race when concurrent:
/// different threads, one writes, and one is non-atomic or their scopes
/// do not include each other.
pub fn may_race(a: &Event, b: &Event) -> bool {
    a.id.thread != b.id.thread
        && (a.is_write() || b.is_write())
        && (!a.is_atomic() || !b.is_atomic() || !scope::inclusive(a, b))
}
