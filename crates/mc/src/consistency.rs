//! Scoped RC11 (SRC11) consistency of an execution graph (seed 000 §3,
//! Figure 3; RC11 as in Lahav et al., PLDI 2017, which the paper extends).
//!
//! This is the *reference* semantics: every relation is a bit matrix over
//! the graph's nodes (one initial write per location, then the events) and
//! every axiom is checked literally, with no cleverness.
//!
//! # Nodes and base relations
//!
//! - Initial writes `Init(x)`, one per location, non-atomic, `po`-before
//!   (hence `hb`-before) every event, and `co`-first at their location.
//! - `po`: per-thread program order, plus `Init × E`.
//! - `rf`: from [`Graph::rf`]; `co`: from [`Graph::co`] (transitive).
//! - `rmw`: the identity on update events (one event per successful RMW, see
//!   [`crate::graph`]).
//! - `fr ≜ (rf⁻¹; co) \ id` (the identity is removed because an update is
//!   `co`-after the write it reads from while being that read itself).
//! - `eco ≜ (rf ∪ co ∪ fr)⁺`.
//! - `incl(a, b)` ([`crate::scope::inclusive`]): both atomic (fences count),
//!   each one's scope includes the other's thread, same location when both
//!   access memory.
//!
//! # Derived relations (SRC11)
//!
//! - `rseq ≜ [W]; po|loc?; [W⊒rlx]; ((rf ∩ incl); [U])*`
//!   (RC11's release sequence, with the paper's `rf ∩ incl`).
//! - `sw ≜ [E⊒rel]; ([F]; po)?; rseq; (rf ∩ incl); [R⊒rlx]; (po; [F])?; [E⊒acq]`,
//!   and, when [`Model::sw_inclusive_endpoints`] is set (the default), only
//!   pairs whose endpoints are scope-inclusive (each one's scope includes
//!   the other's thread). The paper restricts only the `rf` edges ("the sw
//!   related events may not be in the incl relation"); requiring inclusive
//!   endpoints too is what PTX's *morally strong* condition demands for
//!   fence-to-fence synchronisation (a `__threadfence_block()` does not
//!   synchronise with a reader in another block), and it changes nothing
//!   for access-to-access synchronisation, whose endpoints are already
//!   linked by `incl` edges.
//! - `bar`: barrier synchronisation. For barrier events `b₁`, `b₂` of one
//!   instance ([`crate::graph::BarrierInstance`]) in different threads,
//!   `bar ≜ {(b₁, e) | b₂ po e}`: everything `po`-before any participant's
//!   barrier happens before everything `po`-after every participant's
//!   barrier (a block barrier synchronises all threads of the block both
//!   ways, a grid barrier all threads). The paper models a barrier as an
//!   acquire-release RMW on an auxiliary location (§2); `bar` is the
//!   collective, both-ways reading of that, as CUDA specifies
//!   `__syncthreads`.
//! - `hb ≜ (po ∪ sw ∪ bar)⁺`.
//! - `scb ≜ po ∪ po|≠loc; hb; po|≠loc ∪ hb|loc ∪ co ∪ fr`.
//! - `psc_base ≜ ([E^sc] ∪ [F^sc]; hb?); scb; ([E^sc] ∪ hb?; [F^sc])`,
//!   `psc_F ≜ [F^sc]; (hb ∪ hb; eco; hb); [F^sc]`, `psc ≜ psc_base ∪ psc_F`.
//!
//! # Axioms ([`Axiom`])
//!
//! - **(Coherence)** `hb; eco?` is irreflexive, checked as: `hb` is
//!   irreflexive and `hb?; eco` is irreflexive. The extra `?` stands for the
//!   `po` edge from the read part to the write part of an RMW, which the
//!   one-event encoding of updates collapses: with two events, an update
//!   `u` reading from a write `w` that is `co`-after `u` gives the cycle
//!   `r_u po w_u co w rf r_u`; with one event it is `u eco u`.
//! - **(Atomicity)** `rmw ∩ (fr; co) = ∅`: no write between an update and
//!   the write it reads from in `co`.
//! - **(SC)** `psc ∩ incl_t` is acyclic, where `incl_t` is scope inclusion
//!   of the two threads only (conditions (i)–(ii) of `incl`, without (iii)
//!   "same location"). The paper writes `psc ∩ incl`; read literally, (iii)
//!   would drop every `psc` edge between SC accesses to *different*
//!   locations, so store buffering with `seq_cst` device-scope atomics in
//!   one block would keep its `0, 0` outcome, contradicting the claim that
//!   SRC11 coincides with RC11 when every scope includes every thread.
//!   PTX orders SC operations through their (location-less) `fence.sc`,
//!   whose only condition is scope inclusion, which `incl_t` follows.
//! - **(No-Thin-Air)** `po ∪ rf` is acyclic; with barriers, `po ∪ rf ∪ bar`
//!   (a barrier is collective: nobody leaves before everybody arrived, so a
//!   read before a barrier cannot depend on a write after it in another
//!   thread through a chain of reads, which the paper's RMW encoding of
//!   barriers would also forbid via its `rf` edges between the barrier
//!   RMWs).

use crate::graph::{EventId, Graph, Kind, Loc, Order, RfSource};
use crate::rel::Rel;
use crate::scope;
use std::collections::BTreeMap;
use std::fmt;

/// Knobs of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Model {
    /// `sw` only between scope-inclusive endpoints (see the module docs).
    pub sw_inclusive_endpoints: bool,
}

impl Default for Model {
    fn default() -> Model {
        Model {
            sw_inclusive_endpoints: true,
        }
    }
}

/// The axioms of SRC11, by the paper's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axiom {
    Coherence,
    Atomicity,
    Sc,
    NoThinAir,
}

impl fmt::Display for Axiom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Axiom::Coherence => "(Coherence)",
            Axiom::Atomicity => "(Atomicity)",
            Axiom::Sc => "(SC)",
            Axiom::NoThinAir => "(No-Thin-Air)",
        })
    }
}

/// A violated axiom and a node that witnesses it (on the cycle, or the
/// update that is not atomic); `None` when the witness is an initial write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    pub axiom: Axiom,
    pub witness: Option<EventId>,
}

/// A node of the relations: an initial write or an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Init(Loc),
    Event(EventId),
}

/// Every relation of SRC11 over one graph.
#[derive(Clone, Debug)]
pub struct Relations<'g> {
    pub graph: &'g Graph,
    pub model: Model,
    /// Node `i`: the first `graph.init.len()` are initial writes.
    pub nodes: Vec<Node>,
    index: BTreeMap<EventId, usize>,
    pub po: Rel,
    pub rf: Rel,
    pub co: Rel,
    pub fr: Rel,
    pub eco: Rel,
    pub incl: Rel,
    pub rseq: Rel,
    pub sw: Rel,
    pub bar: Rel,
    pub hb: Rel,
}

struct Info {
    loc: Option<Loc>,
    read: bool,
    write: bool,
    update: bool,
    fence: bool,
    barrier: bool,
    order: Order,
}

impl<'g> Relations<'g> {
    pub fn new(graph: &'g Graph, model: Model) -> Relations<'g> {
        let mut nodes: Vec<Node> = graph.init.keys().map(|l| Node::Init(*l)).collect();
        let mut index = BTreeMap::new();
        for e in graph.all_events() {
            index.insert(e.id, nodes.len());
            nodes.push(Node::Event(e.id));
        }
        let n = nodes.len();
        let info: Vec<Info> = nodes
            .iter()
            .map(|node| match node {
                Node::Init(l) => Info {
                    loc: Some(*l),
                    read: false,
                    write: true,
                    update: false,
                    fence: false,
                    barrier: false,
                    order: Order::NonAtomic,
                },
                Node::Event(id) => {
                    let e = graph.event(*id);
                    Info {
                        loc: e.loc,
                        read: e.is_read(),
                        write: e.is_write(),
                        update: e.kind == Kind::Update,
                        fence: e.kind == Kind::Fence,
                        barrier: e.kind == Kind::Barrier,
                        order: e.order,
                    }
                }
            })
            .collect();
        let ev = |i: usize| match nodes[i] {
            Node::Event(id) => Some(graph.event(id)),
            Node::Init(_) => None,
        };
        let same_loc = |a: usize, b: usize| info[a].loc.is_some() && info[a].loc == info[b].loc;
        let init_node = |l: Loc| graph.init.keys().position(|k| *k == l);

        let po = Rel::from_fn(n, |a, b| match (nodes[a], nodes[b]) {
            (Node::Init(_), Node::Event(_)) => true,
            (Node::Event(x), Node::Event(y)) => graph.po(x, y),
            _ => false,
        });
        let mut rf = Rel::empty(n);
        for (r, src) in &graph.rf {
            let r_node = index[r];
            let w_node = match src {
                RfSource::Init => graph.event(*r).loc.and_then(init_node),
                RfSource::Write(w) => index.get(w).copied(),
            };
            if let Some(w) = w_node {
                rf.set(w, r_node);
            }
        }
        let mut co = Rel::empty(n);
        for (loc, ws) in &graph.co {
            let mut order: Vec<usize> = init_node(*loc).into_iter().collect();
            order.extend(ws.iter().filter_map(|w| index.get(w).copied()));
            for (i, a) in order.iter().enumerate() {
                for b in &order[i + 1..] {
                    co.set(*a, *b);
                }
            }
        }
        let fr = rf.inverse().seq(&co).filter(|a, b| a != b);
        let eco = rf.union(&co).union(&fr).plus();
        let incl = Rel::from_fn(n, |a, b| match (ev(a), ev(b)) {
            (Some(x), Some(y)) => scope::inclusive(x, y),
            _ => false,
        });
        let rf_incl = rf.intersect(&incl);

        // rseq ≜ [W]; po|loc?; [W⊒rlx]; ((rf ∩ incl); [U])*
        let w_rlx = Rel::identity(n, |a| info[a].write && info[a].order.is_atomic());
        let w = Rel::identity(n, |a| info[a].write);
        let po_loc = po.filter(same_loc);
        let head = w_rlx.union(&w.seq(&po_loc).seq(&w_rlx));
        let u = Rel::identity(n, |a| info[a].update);
        let rseq = head.seq(&rf_incl.seq(&u).star());

        // sw ≜ [E⊒rel]; ([F]; po)?; rseq; (rf ∩ incl); [R⊒rlx]; (po; [F])?; [E⊒acq]
        let rel_ev = Rel::identity(n, |a| !info[a].barrier && info[a].order.is_release());
        let acq_ev = Rel::identity(n, |a| !info[a].barrier && info[a].order.is_acquire());
        let f = Rel::identity(n, |a| info[a].fence);
        let r_rlx = Rel::identity(n, |a| info[a].read && info[a].order.is_atomic());
        let mut sw = rel_ev
            .seq(&f.seq(&po).opt())
            .seq(&rseq)
            .seq(&rf_incl)
            .seq(&r_rlx)
            .seq(&po.seq(&f).opt())
            .seq(&acq_ev);
        if model.sw_inclusive_endpoints {
            sw = sw.filter(|a, b| match (ev(a), ev(b)) {
                (Some(x), Some(y)) => scope::threads_inclusive(x, y),
                _ => false,
            });
        }

        // bar: (b₁, e) for b₁, b₂ of one instance in different threads, b₂ po e.
        let mut bar = Rel::empty(n);
        for b1 in graph.all_events().filter(|e| e.kind == Kind::Barrier) {
            for b2 in graph.all_events().filter(|e| e.kind == Kind::Barrier) {
                if b1.id.thread != b2.id.thread && b1.barrier == b2.barrier {
                    for e in &graph.events[b2.id.thread][b2.id.index + 1..] {
                        bar.set(index[&b1.id], index[&e.id]);
                    }
                }
            }
        }
        let hb = po.union(&sw).union(&bar).plus();
        Relations {
            graph,
            model,
            nodes,
            index,
            po,
            rf,
            co,
            fr,
            eco,
            incl,
            rseq,
            sw,
            bar,
            hb,
        }
    }

    /// The node of an event.
    pub fn node(&self, id: EventId) -> usize {
        self.index[&id]
    }

    /// `a hb b`.
    pub fn hb(&self, a: EventId, b: EventId) -> bool {
        self.hb.get(self.node(a), self.node(b))
    }

    fn witness(&self, node: usize) -> Option<EventId> {
        match self.nodes[node] {
            Node::Event(id) => Some(id),
            Node::Init(_) => None,
        }
    }

    fn violation(&self, axiom: Axiom, node: usize) -> Violation {
        Violation {
            axiom,
            witness: self.witness(node),
        }
    }

    /// Checks the four axioms (in the order No-Thin-Air, Atomicity,
    /// Coherence, SC) and returns the first one violated.
    pub fn check(&self) -> Result<(), Violation> {
        if let Some(a) = self.po.union(&self.rf).union(&self.bar).cycle_point() {
            return Err(self.violation(Axiom::NoThinAir, a));
        }
        let fr_co = self.fr.seq(&self.co);
        for (i, node) in self.nodes.iter().enumerate() {
            if let Node::Event(id) = node {
                if self.graph.event(*id).kind == Kind::Update && fr_co.get(i, i) {
                    return Err(self.violation(Axiom::Atomicity, i));
                }
            }
        }
        if let Some(a) = self.hb.reflexive_point() {
            return Err(self.violation(Axiom::Coherence, a));
        }
        if let Some(a) = self.hb.opt().seq(&self.eco).reflexive_point() {
            return Err(self.violation(Axiom::Coherence, a));
        }
        if let Some(a) = self.psc().intersect(&self.incl_threads()).cycle_point() {
            return Err(self.violation(Axiom::Sc, a));
        }
        Ok(())
    }

    /// `incl_t`: scope inclusion of the threads of two events (both
    /// atomic), regardless of locations.
    pub fn incl_threads(&self) -> Rel {
        Rel::from_fn(self.nodes.len(), |a, b| {
            match (self.nodes[a], self.nodes[b]) {
                (Node::Event(x), Node::Event(y)) => {
                    scope::threads_inclusive(self.graph.event(x), self.graph.event(y))
                }
                _ => false,
            }
        })
    }

    /// `psc ≜ psc_base ∪ psc_F` (empty without SC events).
    pub fn psc(&self) -> Rel {
        let n = self.nodes.len();
        let order = |i: usize| match self.nodes[i] {
            Node::Event(id) => {
                let e = self.graph.event(id);
                (
                    e.kind != Kind::Barrier && e.order.is_sc(),
                    e.kind == Kind::Fence,
                )
            }
            Node::Init(_) => (false, false),
        };
        let e_sc = Rel::identity(n, |a| order(a).0);
        if e_sc.is_empty() {
            return Rel::empty(n);
        }
        let f_sc = Rel::identity(n, |a| order(a).0 && order(a).1);
        let loc = |a: usize| match self.nodes[a] {
            Node::Init(l) => Some(l),
            Node::Event(id) => self.graph.event(id).loc,
        };
        let same_loc = |a: usize, b: usize| loc(a).is_some() && loc(a) == loc(b);
        let po_nloc = self.po.filter(|a, b| !same_loc(a, b));
        let hb_loc = self.hb.filter(same_loc);
        let scb = self
            .po
            .union(&po_nloc.seq(&self.hb).seq(&po_nloc))
            .union(&hb_loc)
            .union(&self.co)
            .union(&self.fr);
        let hb_opt = self.hb.opt();
        let left = e_sc.union(&f_sc.seq(&hb_opt));
        let right = e_sc.union(&hb_opt.seq(&f_sc));
        let psc_base = left.seq(&scb).seq(&right);
        let psc_f = f_sc
            .seq(&self.hb.union(&self.hb.seq(&self.eco).seq(&self.hb)))
            .seq(&f_sc);
        psc_base.union(&psc_f)
    }
}

/// Checks SRC11 consistency of `graph` under `model`.
pub fn check(graph: &Graph, model: Model) -> Result<(), Violation> {
    Relations::new(graph, model).check()
}

/// Whether `graph` is SRC11-consistent under the default model.
pub fn is_consistent(graph: &Graph) -> bool {
    check(graph, Model::default()).is_ok()
}
