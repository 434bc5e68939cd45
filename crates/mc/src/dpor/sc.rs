//! The (SC) axiom on the DPOR explorer's state: `psc ∩ incl_t` acyclic
//! (seed 000 §3; the relations as [`crate::consistency`] defines them),
//! computed from the events' `hb` views instead of a closure of `po ∪ sw ∪
//! bar`.
//!
//! Only events are nodes: initial writes are neither `seq_cst` nor
//! `hb`-after anything, and have no incoming `rf`, `co` or `fr` edge, so
//! they are on no `psc` path between two events (`scb`'s middle part
//! `po|≠loc; hb; po|≠loc` would need an edge into one).
//!
//! Only threads that can be on a `psc` path are nodes: a thread with no
//! atomic access, no fence and no barrier event (one that only reads and
//! writes plainly, as most threads of a kernel where a few take a lock)
//! has no `sw` or `bar` edge, so none of its events is `hb`-after or
//! `hb`-before an event of another thread. Its events can then be neither
//! the `hb`-successor of a fence that starts a `psc_base` edge nor the
//! `hb`-predecessor of one that ends it, nor on `psc_F`'s `hb; eco; hb`,
//! and they are not `seq_cst`; `co` and `fr` between the remaining events
//! are taken from the whole `co` order, so `eco` paths through them are
//! kept as direct pairs. Without this, 1,024 threads of which 2 take a
//! fenced lock cost a cubic check over every thread's events per state.
//!
//! Invariant: [`consistent`] agrees with [`crate::consistency::check`]'s
//! (SC) on states that satisfy the other axioms.

use super::state::State;
use crate::graph::{Kind, RfSource};
use crate::rel::Rel;
use crate::scope;

/// Whether `psc ∩ incl_t` is acyclic in `s` (which satisfies the other
/// axioms).
pub(super) fn consistent(s: &State<'_>) -> bool {
    let linked: Vec<bool> = s
        .events
        .iter()
        .map(|evs| {
            evs.iter().any(|x| {
                let e = &x.node.event;
                e.is_atomic() || matches!(e.kind, Kind::Fence | Kind::Barrier)
            })
        })
        .collect();
    let nodes: Vec<_> = s
        .events
        .iter()
        .zip(&linked)
        .filter(|(_, l)| **l)
        .flat_map(|(evs, _)| evs.iter().map(|x| &*x.node))
        .collect();
    let n = nodes.len();
    let base: Vec<Option<usize>> = s
        .events
        .iter()
        .zip(&linked)
        .scan(0, |acc, (evs, l)| {
            let b = *acc;
            if *l {
                *acc += evs.len();
                Some(Some(b))
            } else {
                Some(None)
            }
        })
        .collect();
    let idx = |id: crate::graph::EventId| base[id.thread].map(|b| b + id.index);
    let is_sc = |a: usize| nodes[a].event.kind != Kind::Barrier && nodes[a].event.order.is_sc();
    let e_sc = Rel::identity(n, is_sc);
    if e_sc.is_empty() {
        return true;
    }
    let f_sc = Rel::identity(n, |a| is_sc(a) && nodes[a].event.kind == Kind::Fence);
    let same_loc = |a: usize, b: usize| nodes[a].loc.is_some() && nodes[a].loc == nodes[b].loc;
    let po = Rel::from_fn(n, |a, b| {
        let (x, y) = (nodes[a].event.id, nodes[b].event.id);
        x.thread == y.thread && x.index < y.index
    });
    let hb = Rel::from_fn(n, |a, b| nodes[b].hb_after(nodes[a].event.id));
    let mut co = Rel::empty(n);
    let mut rf = Rel::empty(n);
    let mut fr = Rel::empty(n);
    for ws in &s.co {
        let kept: Vec<usize> = ws.iter().filter_map(|w| idx(*w)).collect();
        for (i, a) in kept.iter().enumerate() {
            for b in &kept[i + 1..] {
                co.set(*a, *b);
            }
        }
    }
    for (r, node) in nodes.iter().enumerate() {
        let (Some(loc), Some(src)) = (node.loc, node.rf) else {
            continue;
        };
        if let RfSource::Write(w) = src {
            if let Some(w) = idx(w) {
                rf.set(w, r);
            }
        }
        let from = s.co_pos(loc, src).unwrap_or(0);
        for w in s.co(loc)[from..].iter().filter_map(|w| idx(*w)) {
            if w != r {
                fr.set(r, w);
            }
        }
    }
    let po_nloc = po.filter(|a, b| !same_loc(a, b));
    let hb_loc = hb.filter(same_loc);
    let scb = po
        .union(&po_nloc.seq(&hb).seq(&po_nloc))
        .union(&hb_loc)
        .union(&co)
        .union(&fr);
    let hb_opt = hb.opt();
    let left = e_sc.union(&f_sc.seq(&hb_opt));
    let right = e_sc.union(&hb_opt.seq(&f_sc));
    let mut psc = left.seq(&scb).seq(&right);
    if !f_sc.is_empty() {
        let eco = rf.union(&co).union(&fr).plus();
        psc = psc.union(&f_sc.seq(&hb.union(&hb.seq(&eco).seq(&hb))).seq(&f_sc));
    }
    let incl_t = Rel::from_fn(n, |a, b| {
        scope::threads_inclusive(&nodes[a].event, &nodes[b].event)
    });
    psc.intersect(&incl_t).is_acyclic()
}
