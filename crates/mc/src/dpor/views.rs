//! The views (vector clocks) of a new event of the DPOR explorer's state:
//! its `hb`-predecessors and its `porf`-prefix, per thread (seed 000 §3's
//! `hb` and §4's `porf`, as in [`crate::consistency`]).
//!
//! A new event `e` of thread `t` is `po`-last, and nothing reads from it
//! yet, so no existing event gains a predecessor; `e`'s own predecessors
//! are
//!
//! - its `po`-predecessor's (views are transitive, so one view suffices);
//! - after a barrier (its `po`-predecessor is a barrier event), every
//!   arrival at that instance (`bar`, and the barrier closure of `porf`);
//! - for `porf`, its `rf` source;
//! - for `hb`, its `sw` sources: `e` acquires (not a barrier), and is an
//!   atomic read whose source `w` is scope-inclusive with it, or a fence
//!   `po`-after such a read. The release sources of `w` are found by
//!   walking `w`'s release sequence back (`rseq ≜ [W]; po|loc?; [W⊒rlx];
//!   ((rf ∩ incl); [U])*`): every write `c` of the chain of inclusive
//!   updates ending in `w` may start it, and in `c`'s thread a release
//!   write to `c`'s location `po`-before `c` (or `c` itself), or a release
//!   fence `po`-before `c`, synchronises with `e` when (with
//!   [`Model::sw_inclusive_endpoints`]) the two are scope-inclusive. Views
//!   grow along `po`, so the latest such source of a thread is the only one
//!   that matters.
//!
//! Invariant: the result equals the rows of [`crate::consistency`]'s `hb`
//! and the `porf`-prefix of the explorer's revisits on the state plus `e`
//! (checked against them in debug builds by the explorer's tests).

use super::state::State;
use crate::consistency::Model;
use crate::graph::{Event, EventId, Kind, RfSource};
use crate::scope;

/// The `hb` and `porf` views of `e`, about to be appended to its thread in
/// `s`, reading from `rf` when it reads.
pub(super) fn views(
    s: &State<'_>,
    e: &Event,
    rf: Option<RfSource>,
    model: Model,
) -> (Box<[u32]>, Box<[u32]>) {
    let n = s.events.len();
    let t = e.id.thread;
    let (mut hb, mut porf) = match s.events[t].last() {
        Some(p) => (p.node.hb.to_vec(), p.node.porf.to_vec()),
        None => (vec![0; n], vec![0; n]),
    };
    if let Some(inst) = s.events[t].last().and_then(|p| {
        p.node
            .event
            .barrier
            .filter(|_| p.node.event.kind == Kind::Barrier)
    }) {
        for arrival in s.nodes().filter(|x| x.event.barrier == Some(inst)) {
            join(&mut hb, &arrival.hb);
            join(&mut porf, &arrival.porf);
        }
    }
    if let Some(RfSource::Write(w)) = rf {
        join(&mut porf, &s.node(w).porf);
    }
    if e.kind != Kind::Barrier && e.order.is_acquire() {
        if e.is_read() && e.is_atomic() {
            if let Some(RfSource::Write(w)) = rf {
                sync_from(s, w, e, e, model, &mut hb);
            }
        } else if e.kind == Kind::Fence {
            for r in s.events[t].iter().map(|x| &x.node) {
                if let (true, true, Some(RfSource::Write(w))) =
                    (r.event.is_read(), r.event.is_atomic(), r.rf)
                {
                    sync_from(s, w, &r.event, e, model, &mut hb);
                }
            }
        }
    }
    hb[t] = e.id.index as u32 + 1;
    porf[t] = e.id.index as u32 + 1;
    (hb.into_boxed_slice(), porf.into_boxed_slice())
}

/// Joins into `hb` the views of the release sources that synchronise with
/// `acq` through `reader` (`acq` itself, or a read `po`-before the fence
/// `acq`) reading from `w`.
fn sync_from(s: &State<'_>, w: EventId, reader: &Event, acq: &Event, model: Model, hb: &mut [u32]) {
    if !scope::inclusive(&s.node(w).event, reader) {
        return;
    }
    let mut c = w;
    loop {
        let cn = s.node(c);
        for x in s.events[c.thread][..=c.index].iter().rev() {
            let x = &x.node;
            let xe = &x.event;
            let source = xe.kind != Kind::Barrier
                && xe.order.is_release()
                && ((xe.is_write() && (xe.id == c || xe.loc == cn.event.loc))
                    || (xe.kind == Kind::Fence && xe.id != c));
            if source && (!model.sw_inclusive_endpoints || scope::threads_inclusive(xe, acq)) {
                join(hb, &x.hb);
                break;
            }
        }
        match (cn.event.kind, cn.rf) {
            (Kind::Update, Some(RfSource::Write(p)))
                if scope::inclusive(&s.node(p).event, &cn.event) =>
            {
                c = p;
            }
            _ => return,
        }
    }
}

fn join(into: &mut [u32], from: &[u32]) {
    for (a, b) in into.iter_mut().zip(from) {
        *a = (*a).max(*b);
    }
}
