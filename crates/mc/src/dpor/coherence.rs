//! Incremental consistency of the DPOR explorer's successors (seed 000 §3's
//! axioms, checked only where the new event can break them).
//!
//! Every successor is a consistent state plus one event `e` that is
//! `po`-last and `hb`-maximal (nothing reads from it yet), and for a write
//! its placement in `co`; a backward revisit is a restriction of a
//! consistent state (consistent: its relations are subsets) plus the
//! revisiting write's placement and then the re-read. Every relation of
//! SRC11 only gains pairs that involve `e` (`co` insertions keep the order
//! of the other writes; `hb` gains no pair between old events), so:
//!
//! - **(No-Thin-Air)** holds by construction: a cycle of `po ∪ rf ∪ bar`
//!   through `e` needs an edge out of `e`, and `e` has none (nobody reads
//!   from it; a barrier arrival precedes, in `bar`, only events after the
//!   release, which come later). `hb ⊆ (po ∪ rf ∪ bar)⁺` is acyclic too.
//! - **(Coherence)**, `hb; eco?` irreflexive: a new cycle must leave `e`
//!   by `eco` (`e` is `hb`-maximal) and come back by `hb`, and `eco` out of
//!   `e` (`fr`, and for an update `co`, then possibly `rf`) reaches exactly
//!   the writes `co`-after `e`'s place and their readers. So `e` (a read of
//!   source `s`, or a write put at a place) must be `co`-after every write
//!   `hb`-before it and every source of a read `hb`-before it:
//!   [`co_floor`] is the least `co` position allowed (a read's source at
//!   that position or later; a write inserted there or later).
//! - **(Atomicity)**: an update sits right after its source; a write (or
//!   update) placed between an update and that update's source breaks it
//!   ([`splits_update`]).
//! - **(SC)** involves only `seq_cst` events but new `co` and `hb` pairs
//!   of any event can add `psc` pairs between old ones (through fences), so
//!   it is rechecked in full ([`super::sc`]) whenever the state has `seq_cst`
//!   events, and skipped otherwise.
//!
//! Invariant: for a consistent state, [`co_floor`] and [`splits_update`]
//! accept exactly the successors that [`crate::consistency::check`]
//! accepts, up to (SC) (the explorer's debug builds assert this on every
//! successor, accepted or not).

use super::state::{Node, State};
use crate::graph::{EventId, RfSource};

/// The least `co` position (the initial write is 0) that a new access at
/// interned location `loc` with `hb` view `view` may take: past every write
/// `hb`-before it and every source of a read `hb`-before it. `me` is the
/// new event (not counted when it is already in the state).
pub(super) fn co_floor(s: &State<'_>, view: &[u32], me: EventId, loc: usize) -> usize {
    let mut floor = 0;
    for (u, evs) in s.events.iter().enumerate() {
        let upto = (view[u] as usize).min(evs.len());
        for slot in &evs[..upto] {
            let y: &Node<'_> = &slot.node;
            if y.loc != Some(loc) || y.event.id == me {
                continue;
            }
            let src = if y.event.is_write() {
                Some(RfSource::Write(y.event.id))
            } else {
                y.rf
            };
            if let Some(src) = src {
                let pos = s.co_pos(loc, src);
                debug_assert!(pos.is_some(), "every placed write is in co");
                floor = floor.max(pos.unwrap_or(0));
            }
        }
    }
    floor
}

/// Whether inserting a write at list index `at` of `loc`'s `co` puts it
/// between an update and the write that update reads from.
pub(super) fn splits_update(s: &State<'_>, loc: usize, at: usize) -> bool {
    let co = s.co(loc);
    let Some(next) = co.get(at) else {
        return false;
    };
    let before = if at == 0 {
        RfSource::Init
    } else {
        RfSource::Write(co[at - 1])
    };
    let n = s.node(*next);
    n.event.kind == crate::graph::Kind::Update && n.rf == Some(before)
}
