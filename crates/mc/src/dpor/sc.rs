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
//! Without `seq_cst` fences (the common case: `seq_cst` accesses only),
//! `psc` is `[E_sc]; scb; [E_sc]` and only its edges between `seq_cst`
//! events matter, so [`without_sc_fences`] decides each such edge from the
//! views directly and searches the small graph for a cycle, instead of
//! composing relations over every event (SB-n with `seq_cst` accesses:
//! the relation algebra was 90% of the exploration). `po|≠loc; hb;
//! po|≠loc` from `a` to `b` holds exactly when the first event after `a`
//! in its thread at another location is `hb`-before the last event before
//! `b` in its thread at another location (`po ⊆ hb` and `hb` is transitive,
//! so these two are the best witnesses).
//!
//! Invariant: [`consistent`] agrees with [`crate::consistency::check`]'s
//! (SC) on states that satisfy the other axioms; debug builds compare the
//! fast path with the relation algebra on every state.

use super::state::{Node, State};
use crate::graph::{EventId, Kind, RfSource};
use crate::rel::Rel;
use crate::scope;

/// Whether `psc ∩ incl_t` is acyclic in `s` (which satisfies the other
/// axioms). `new`: the event a forward step added to a state that
/// satisfied (SC); without `seq_cst` fences only cycles through it are
/// searched (see [`without_sc_fences`]).
pub(super) fn consistent(s: &State<'_>, new: Option<EventId>) -> bool {
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
    let sc_fence = s
        .events
        .iter()
        .flat_map(|evs| evs.iter())
        .any(|x| x.node.event.kind == Kind::Fence && x.node.event.order.is_sc());
    if !sc_fence {
        let fast = without_sc_fences(s, &linked, new);
        if cfg!(debug_assertions) {
            assert_eq!(
                fast,
                by_relations(s, &linked),
                "the fast (SC) check agrees with the relation algebra"
            );
        }
        return fast;
    }
    by_relations(s, &linked)
}

/// The (SC) check by composing the relations over every event of the
/// linked threads.
fn by_relations(s: &State<'_>, linked: &[bool]) -> bool {
    let nodes: Vec<_> = s
        .events
        .iter()
        .zip(linked)
        .filter(|(_, l)| **l)
        .flat_map(|(evs, _)| evs.iter().map(|x| &*x.node))
        .collect();
    let n = nodes.len();
    let base: Vec<Option<usize>> = s
        .events
        .iter()
        .zip(linked)
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

/// (SC) when no `seq_cst` fence exists: `psc ∩ incl_t` restricted to the
/// `seq_cst` events of the linked threads, each edge decided from the
/// views (see the module docs), then a search for a cycle.
///
/// With `new`, the state is a consistent one plus the event `new`, and
/// every edge the event adds is incident to it: no earlier event is
/// `hb`-after it (views never change), so it can only be the first event
/// after some `a` of a `po|≠loc; hb; po|≠loc` path that needs an event
/// `hb`-after it, and its `co` and `fr` pairs all have it at one end. A
/// new cycle then passes through `new`, and only paths from it are
/// searched; a `new` that is not `seq_cst` adds no `psc` edge at all.
fn without_sc_fences(s: &State<'_>, linked: &[bool], new: Option<EventId>) -> bool {
    let same_loc = |a: &Node<'_>, b: &Node<'_>| a.loc.is_some() && a.loc == b.loc;
    let sc: Vec<&Node<'_>> = s
        .events
        .iter()
        .zip(linked)
        .filter(|(_, l)| **l)
        .flat_map(|(evs, _)| evs.iter().map(|x| &*x.node))
        .filter(|x| x.event.kind != Kind::Barrier && x.event.order.is_sc())
        .collect();
    if sc.len() < 2 {
        return true;
    }
    let roots: Vec<usize> = match new {
        None => (0..sc.len()).collect(),
        Some(e) => match sc.iter().position(|x| x.event.id == e) {
            Some(i) => vec![i],
            None => return true,
        },
    };
    let thread = |t: usize| &s.events[t];
    // Per `seq_cst` event: the first later event and the last earlier
    // event of its thread at another location.
    let after: Vec<Option<EventId>> = sc
        .iter()
        .map(|x| {
            let evs = thread(x.event.id.thread);
            evs[x.event.id.index + 1..]
                .iter()
                .find(|y| !same_loc(x, &y.node))
                .map(|y| y.node.event.id)
        })
        .collect();
    let before: Vec<Option<EventId>> = sc
        .iter()
        .map(|x| {
            let evs = thread(x.event.id.thread);
            evs[..x.event.id.index]
                .iter()
                .rev()
                .find(|y| !same_loc(&y.node, x))
                .map(|y| y.node.event.id)
        })
        .collect();
    let node = |id: EventId| &*s.events[id.thread][id.index].node;
    // A write's place in its location's `co` (0-based), if it has one.
    let co_index = |x: &Node<'_>| {
        x.loc
            .and_then(|l| s.co(l).iter().position(|w| *w == x.event.id))
    };
    let co_at: Vec<Option<usize>> = sc.iter().map(|x| co_index(x)).collect();
    // The `co` index from which a read's `fr` successors start.
    let fr_from: Vec<Option<usize>> = sc
        .iter()
        .map(|x| match (x.loc, x.rf) {
            (Some(l), Some(src)) => s.co_pos(l, src),
            _ => None,
        })
        .collect();
    let edge = |i: usize, j: usize| -> bool {
        let (a, b) = (sc[i], sc[j]);
        if i == j || !crate::scope::threads_inclusive(&a.event, &b.event) {
            return false;
        }
        let (x, y) = (a.event.id, b.event.id);
        if x.thread == y.thread && x.index < y.index {
            return true;
        }
        if same_loc(a, b) {
            if b.hb_after(x) {
                return true;
            }
            // co, and fr (a read before a write its source precedes).
            if let (Some(p), Some(q)) = (co_at[i], co_at[j]) {
                if p < q {
                    return true;
                }
            }
            if let (Some(from), Some(q)) = (fr_from[i], co_at[j]) {
                if q >= from {
                    return true;
                }
            }
        }
        matches!((after[i], before[j]), (Some(c), Some(d)) if node(d).hb_after(c))
    };
    // Depth-first search for a cycle (white 0, grey 1, black 2).
    let n = sc.len();
    let mut colour = vec![0u8; n];
    for root in roots {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        colour[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next == n {
                colour[v] = 2;
                stack.pop();
                continue;
            }
            let w = *next;
            *next += 1;
            if !edge(v, w) {
                continue;
            }
            match colour[w] {
                1 => return false,
                0 => {
                    colour[w] = 1;
                    stack.push((w, 0));
                }
                _ => {}
            }
        }
    }
    true
}
