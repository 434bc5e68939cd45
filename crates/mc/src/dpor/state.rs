//! The DPOR explorer's partial execution (seed 000 §4): the graph as the
//! explorer grows and restricts it, built for cheap copies and cheap
//! queries, and its conversion to the public [`Graph`].
//!
//! - Every event is an immutable [`Node`] behind an `Arc`, shared by all the
//!   states that contain it: copying a state copies one pointer per event
//!   (and the per-state bit [`Slot::revisitable`]), never an event.
//! - A node carries two vector clocks, its *views*: [`Node::hb`] counts,
//!   per thread, the events `hb`-before the node or the node itself, and
//!   [`Node::porf`] those in its `porf`-prefix (closed under `po`, `rf` and
//!   barrier instances) or the node itself. A view is computed once, when
//!   the node is created, from its `po`-predecessor, its `rf` source (for
//!   `porf`), its `sw` sources (for `hb`) and, after a barrier, every
//!   arrival at that barrier instance (see [`super::views`]).
//! - A thread's interpreter is shared the same way ([`Lane::thread`]); it is
//!   copied only when the thread runs on (`Arc::make_mut`). The node keeps
//!   the interpreter paused at its event ([`Node::pre`]), so restricting a
//!   graph never re-runs a thread.
//! - `co` is, per interned location (an index into the explorer's location
//!   table), the list of writes after the initial one.
//!
//! Invariants: `events[t][i].node.event.id == (t, i)`; a node's views only
//! count events that are in every state containing the node (states are
//! `porf`-closed restrictions, and `hb ⊆ (po ∪ rf ∪ bar)⁺`); a read node's
//! `rf` source is an event of the state or `Init`.

use crate::graph::{Event, EventId, Graph, Loc, RfSource};
use crate::grid::Status;
use std::collections::HashMap;
use std::sync::Arc;
use warpsafe_interp::{Thread, Value};

/// One event of a partial execution, shared between states.
pub(super) struct Node<'k> {
    /// The event as the public graph shows it.
    pub event: Event,
    /// The event's interned location.
    pub loc: Option<usize>,
    /// What a read (or update) reads from.
    pub rf: Option<RfSource>,
    /// Insertion order (TruSt's `<`).
    pub stamp: u64,
    /// The thread paused at this event, before it was performed.
    pub pre: Arc<Thread<'k>>,
    /// The interpreter's event.
    pub ev: warpsafe_interp::Event,
    /// Per thread, the number of its events `hb`-before this one (this one
    /// included for its own thread).
    pub hb: Box<[u32]>,
    /// Per thread, the number of its events in this node's `porf`-prefix
    /// (this one included for its own thread).
    pub porf: Box<[u32]>,
}

impl Node<'_> {
    /// `x hb self` (strict: `hb` is irreflexive in every state).
    pub fn hb_after(&self, x: EventId) -> bool {
        x != self.event.id && self.hb[x.thread] as usize > x.index
    }
}

/// An event of one state: the shared node and the per-state bit.
#[derive(Clone)]
pub(super) struct Slot<'k> {
    pub node: Arc<Node<'k>>,
    /// A read that later writes may revisit (false once it is in the
    /// `porf`-prefix of a write that revisited an earlier read).
    pub revisitable: bool,
}

/// Where one thread is.
#[derive(Clone)]
pub(super) struct Lane<'k> {
    pub thread: Arc<Thread<'k>>,
    pub status: Status,
    /// The interned location of the atomic the thread faulted at (its
    /// initial value is part of the graph, as in the reference enumerator).
    pub fault_loc: Option<usize>,
}

/// A partial execution and where every thread stands.
///
/// Every thread's events and every location's `co` list and every thread's [`Lane`] sit behind an
/// `Arc`: a copy shares them, and a change copies only the list it changes.
#[derive(Clone)]
pub(super) struct State<'k> {
    pub lanes: Vec<Arc<Lane<'k>>>,
    pub events: Vec<Arc<Vec<Slot<'k>>>>,
    /// Per interned location, the writes in `co` order after the initial one.
    pub co: Vec<Arc<Vec<EventId>>>,
    pub next_stamp: u64,
    /// Events with a `seq_cst` order (not barriers): (SC) is checked only
    /// when there are some.
    pub sc_events: u32,
}

impl<'k> State<'k> {
    pub fn node(&self, id: EventId) -> &Node<'k> {
        &self.events[id.thread][id.index].node
    }

    pub fn slot_mut(&mut self, id: EventId) -> &mut Slot<'k> {
        &mut self.thread_mut(id.thread)[id.index]
    }

    /// Thread `t`'s events, for changing them.
    pub fn thread_mut(&mut self, t: usize) -> &mut Vec<Slot<'k>> {
        Arc::make_mut(&mut self.events[t])
    }

    pub fn next_id(&self, t: usize) -> EventId {
        EventId {
            thread: t,
            index: self.events[t].len(),
        }
    }

    pub fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// All nodes, thread by thread in program order.
    pub fn nodes(&self) -> impl Iterator<Item = &Node<'k>> {
        self.events
            .iter()
            .flat_map(|evs| evs.iter())
            .map(|s| &*s.node)
    }

    /// The writes to interned location `loc` after the initial one.
    pub fn co(&self, loc: usize) -> &[EventId] {
        self.co.get(loc).map_or(&[], |ws| ws.as_slice())
    }

    /// The `co` list of `loc`, for changing it.
    pub fn co_mut(&mut self, loc: usize) -> &mut Vec<EventId> {
        if self.co.len() <= loc {
            self.co.resize_with(loc + 1, Arc::default);
        }
        Arc::make_mut(&mut self.co[loc])
    }

    /// The position of a source in its location's `co` (the initial write
    /// is 0, the `i`-th listed write `i + 1`); `None` when it is not there.
    pub fn co_pos(&self, loc: usize, src: RfSource) -> Option<usize> {
        match src {
            RfSource::Init => Some(0),
            RfSource::Write(w) => self.co(loc).iter().position(|x| *x == w).map(|i| i + 1),
        }
    }

    /// The public graph of this state; `locs` is the explorer's location
    /// table (location and initial value) and `sorted` its indices in the
    /// order of their locations.
    pub fn to_graph(
        &self,
        threads: &[crate::graph::ThreadId],
        locs: &[(Loc, Value)],
        sorted: &[usize],
    ) -> Graph {
        let mut g = Graph::new(threads.to_vec());
        let mut touched = vec![false; locs.len()];
        for (t, evs) in self.events.iter().enumerate() {
            g.events[t] = evs.iter().map(|s| s.node.event.clone()).collect();
            for l in evs.iter().filter_map(|s| s.node.loc) {
                touched[l] = true;
            }
        }
        // Built from sorted sequences (no re-sorting, bulk insertion).
        g.rf = self
            .nodes()
            .filter_map(|n| n.rf.map(|src| (n.event.id, src)))
            .collect();
        for l in self.lanes.iter().filter_map(|l| l.fault_loc) {
            touched[l] = true;
        }
        g.co = sorted
            .iter()
            .filter_map(|l| {
                let ws = self.co(*l);
                (!ws.is_empty()).then(|| (locs[*l].0, ws.to_vec()))
            })
            .collect();
        g.init = sorted
            .iter()
            .filter(|l| touched[**l])
            .map(|l| locs[*l])
            .collect();
        g
    }
}

/// Deep copies of states for another core ([`State::detached`]): a
/// reference count that two cores update bounces between their caches,
/// so states handed to another worker share nothing with the giver's.
/// States detached through one `Detach` share their copies with each
/// other (by address of the original).
#[derive(Default)]
pub(super) struct Detach<'k> {
    threads: HashMap<*const Thread<'k>, Arc<Thread<'k>>>,
    nodes: HashMap<*const Node<'k>, Arc<Node<'k>>>,
    slots: HashMap<*const Vec<Slot<'k>>, Arc<Vec<Slot<'k>>>>,
    lanes: HashMap<*const Lane<'k>, Arc<Lane<'k>>>,
    co: HashMap<*const Vec<EventId>, Arc<Vec<EventId>>>,
}

/// The copy of `x` in `memo`, made by `copy` the first time.
fn copied<T>(memo: &mut HashMap<*const T, Arc<T>>, x: &Arc<T>, copy: impl FnOnce() -> T) -> Arc<T> {
    if let Some(c) = memo.get(&Arc::as_ptr(x)) {
        return Arc::clone(c);
    }
    let c = Arc::new(copy());
    memo.insert(Arc::as_ptr(x), Arc::clone(&c));
    c
}

impl<'k> Detach<'k> {
    fn thread(&mut self, t: &Arc<Thread<'k>>) -> Arc<Thread<'k>> {
        copied(&mut self.threads, t, || Thread::clone(t))
    }

    fn node(&mut self, n: &Arc<Node<'k>>) -> Arc<Node<'k>> {
        // A copied node's thread was copied with it: a lookup.
        let pre = self.thread(&n.pre);
        copied(&mut self.nodes, n, || Node {
            event: n.event.clone(),
            loc: n.loc,
            rf: n.rf,
            stamp: n.stamp,
            pre,
            ev: n.ev.clone(),
            hb: n.hb.clone(),
            porf: n.porf.clone(),
        })
    }

    fn slots(&mut self, v: &Arc<Vec<Slot<'k>>>) -> Arc<Vec<Slot<'k>>> {
        // Looked up before the nodes are copied (not through `copied`):
        // a list met twice is not walked twice.
        if let Some(c) = self.slots.get(&Arc::as_ptr(v)) {
            return Arc::clone(c);
        }
        let copy: Vec<Slot<'k>> = v
            .iter()
            .map(|s| Slot {
                node: self.node(&s.node),
                revisitable: s.revisitable,
            })
            .collect();
        let c = Arc::new(copy);
        self.slots.insert(Arc::as_ptr(v), Arc::clone(&c));
        c
    }

    fn lane(&mut self, l: &Arc<Lane<'k>>) -> Arc<Lane<'k>> {
        let thread = self.thread(&l.thread);
        copied(&mut self.lanes, l, || Lane {
            thread,
            status: l.status.clone(),
            fault_loc: l.fault_loc,
        })
    }
}

impl<'k> State<'k> {
    /// A copy that shares nothing with `self` but what `memo` copied
    /// already (see [`Detach`]).
    pub fn detached(&self, memo: &mut Detach<'k>) -> State<'k> {
        State {
            lanes: self.lanes.iter().map(|l| memo.lane(l)).collect(),
            events: self.events.iter().map(|v| memo.slots(v)).collect(),
            co: self
                .co
                .iter()
                .map(|c| copied(&mut memo.co, c, || Vec::clone(c)))
                .collect(),
            next_stamp: self.next_stamp,
            sc_events: self.sc_events,
        }
    }
}
