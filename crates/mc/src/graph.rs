//! Execution graphs (seed 000 §3 "Events", "Relations", "Execution").
//!
//! An execution `G = ⟨E, po, rf, co, rmw⟩` is stored as:
//!
//! - **Events** per thread, in program order: [`Graph::events`]`[t]` is the
//!   sequence of thread `t`'s events, so `po` is implicit (`a po b` iff same
//!   thread and `a.index < b.index`). Every [`Event`] carries its thread
//!   ([`ThreadId`]: linear block in the grid and linear thread in the block),
//!   kind, location, values, memory order, scope and source span.
//! - **RMWs as one event.** A successful RMW or CAS is a single
//!   [`Kind::Update`] event that is both a read and a write (it has a read
//!   value and a written value). The paper's `rmw` relation (a read and a
//!   write in immediate `po`) is then the identity on update events, and its
//!   atomicity axiom `rmw ∩ (fr; co) = ∅` reads "no write lies in `co`
//!   between an update and the write it reads from". A failed CAS is a plain
//!   [`Kind::Read`] with the CAS's failure order. This keeps `po` and event
//!   indices one-to-one with the interpreter's events.
//! - **`rf`** maps every read (and update) to the write it reads from, or
//!   [`RfSource::Init`], the location's initial value.
//! - **`co`** is, per location, the total order of the (non-initial) writes
//!   and updates to it; the initial write is implicitly `co`-first.
//! - **Initial values** ([`Graph::init`]): for every location the graph
//!   touches, the initialiser of its array when the IR has one
//!   (`Array::init`, `__device__ int x = 3;`), else **zero** of the slot's
//!   type. (CUDA leaves `__shared__` memory and fresh `cudaMalloc` memory
//!   uninitialised; the reference enumerator fixes zero so that outcomes
//!   are concrete, which is what litmus tests assume.)
//! - **Locations** ([`Loc`]) are scalar slots; slots of `__shared__` arrays
//!   are qualified by the block, since every block has its own copy.
//! - **Barriers** are [`Kind::Barrier`] events naming their *instance*
//!   ([`BarrierInstance`]: the group of threads that synchronise and the
//!   how-many-th time this thread arrives at a barrier of that group).
//!
//! Two graphs are equal (and hash equally) when they have the same events,
//! `rf` and `co`: event identities ([`EventId`] = thread and `po` index) do
//! not depend on the interleaving that produced the graph.
//!
//! Memory orders: a `volatile` access still in the IR is a relaxed atomic
//! at system scope (what PTX makes of `ld.volatile`/`st.volatile` since
//! PTX 6.0); the CLI rewrites them first into the reading `--volatile`
//! picks (`warpsafe_ir::VolatileReading`). Plain accesses are non-atomic
//! and have no scope.

use std::collections::BTreeMap;
use std::fmt;
use warpsafe_interp::Value;
use warpsafe_ir::{AccessKind, ArrayId, MemOrder, Scope, Span};

/// A thread of the launch: its block's linear index in the grid and its
/// linear index in the block (x fastest, as CUDA linearises them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadId {
    pub block: u32,
    pub thread: u32,
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block {} thread {}", self.block, self.thread)
    }
}

/// An event: the position of its thread in [`Graph::threads`] and its index
/// in that thread's program order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId {
    pub thread: usize,
    pub index: usize,
}

/// A scalar slot of shared state; `block` qualifies `__shared__` slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub array: ArrayId,
    pub index: u64,
    pub block: Option<u32>,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "array {}[{}]", self.array.0, self.index)?;
        if let Some(b) = self.block {
            write!(f, " of block {b}")?;
        }
        Ok(())
    }
}

/// Memory orders, in the paper's `NA ⊏ RLX ⊑ {REL, ACQ} ⊑ ACQ-REL ⊏ SC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Order {
    NonAtomic,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Order {
    pub fn is_atomic(self) -> bool {
        self != Order::NonAtomic
    }

    /// `⊒ ACQ`.
    pub fn is_acquire(self) -> bool {
        matches!(self, Order::Acquire | Order::AcqRel | Order::SeqCst)
    }

    /// `⊒ REL`.
    pub fn is_release(self) -> bool {
        matches!(self, Order::Release | Order::AcqRel | Order::SeqCst)
    }

    pub fn is_sc(self) -> bool {
        self == Order::SeqCst
    }

    pub fn from_mem_order(o: MemOrder) -> Order {
        match o {
            MemOrder::Relaxed => Order::Relaxed,
            MemOrder::Acquire => Order::Acquire,
            MemOrder::Release => Order::Release,
            MemOrder::AcqRel => Order::AcqRel,
            MemOrder::SeqCst => Order::SeqCst,
        }
    }

    /// The order and scope of an access (see the module docs for
    /// `volatile`).
    pub fn from_access(a: AccessKind) -> (Order, Option<Scope>) {
        match a {
            AccessKind::Plain => (Order::NonAtomic, None),
            AccessKind::Volatile => (Order::Relaxed, Some(Scope::System)),
            AccessKind::Atomic { order, scope } => (Order::from_mem_order(order), Some(scope)),
        }
    }
}

/// What an event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Read,
    Write,
    /// A successful RMW/CAS: a read and a write in one event.
    Update,
    Fence,
    Barrier,
}

/// The threads one barrier synchronises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BarrierGroup {
    /// `__syncthreads()`: every thread of `block`.
    Block { block: u32 },
    /// `__syncwarp(mask)`: the lanes of `mask` in warp `warp` of `block`.
    Warp { block: u32, warp: u32, mask: u32 },
    /// A `tiled_partition<size>` tile's `sync()`.
    Tile { block: u32, size: u32, tile: u32 },
    /// `this_grid().sync()`: every thread.
    Grid,
}

/// One barrier instance: the `generation`-th barrier of `group`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BarrierInstance {
    pub group: BarrierGroup,
    pub generation: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    pub id: EventId,
    pub thread: ThreadId,
    pub kind: Kind,
    /// The location of reads, writes and updates.
    pub loc: Option<Loc>,
    /// The value read (reads and updates).
    pub read_value: Option<Value>,
    /// The value written (writes and updates).
    pub written_value: Option<Value>,
    /// Barriers are `AcqRel` (they are synchronising both ways).
    pub order: Order,
    /// `None` for non-atomic accesses (and barriers, whose reach is their
    /// group).
    pub scope: Option<Scope>,
    pub span: Span,
    pub barrier: Option<BarrierInstance>,
}

impl Event {
    pub fn is_read(&self) -> bool {
        matches!(self.kind, Kind::Read | Kind::Update)
    }

    pub fn is_write(&self) -> bool {
        matches!(self.kind, Kind::Write | Kind::Update)
    }

    pub fn is_access(&self) -> bool {
        self.loc.is_some()
    }

    pub fn is_fence(&self) -> bool {
        self.kind == Kind::Fence
    }

    pub fn is_atomic(&self) -> bool {
        self.order.is_atomic()
    }
}

/// What a read reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RfSource {
    /// The location's initial value.
    Init,
    Write(EventId),
}

/// An execution graph; see the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Graph {
    /// The threads, in launch order (block-major).
    pub threads: Vec<ThreadId>,
    /// Each thread's events in program order.
    pub events: Vec<Vec<Event>>,
    /// Every read's (and update's) source.
    pub rf: BTreeMap<EventId, RfSource>,
    /// Per location, the writes in coherence order (after the initial one).
    pub co: BTreeMap<Loc, Vec<EventId>>,
    /// The initial value of every location the graph touches.
    pub init: BTreeMap<Loc, Value>,
}

impl Graph {
    pub fn new(threads: Vec<ThreadId>) -> Graph {
        let events = vec![Vec::new(); threads.len()];
        Graph {
            threads,
            events,
            ..Graph::default()
        }
    }

    pub fn event(&self, id: EventId) -> &Event {
        &self.events[id.thread][id.index]
    }

    /// All events, thread by thread in program order.
    pub fn all_events(&self) -> impl Iterator<Item = &Event> {
        self.events.iter().flatten()
    }

    pub fn len(&self) -> usize {
        self.events.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id the next event of thread `t` gets.
    pub fn next_id(&self, t: usize) -> EventId {
        EventId {
            thread: t,
            index: self.events[t].len(),
        }
    }

    /// Appends an event to its thread (its `id` must be [`Graph::next_id`]).
    pub fn push(&mut self, event: Event) -> EventId {
        let id = event.id;
        debug_assert_eq!(id, self.next_id(id.thread));
        self.events[id.thread].push(event);
        id
    }

    /// `a po b`.
    pub fn po(&self, a: EventId, b: EventId) -> bool {
        a.thread == b.thread && a.index < b.index
    }

    /// The value a source of `rf` provides at `loc`.
    pub fn source_value(&self, loc: Loc, src: RfSource) -> Option<Value> {
        match src {
            RfSource::Init => self.init.get(&loc).copied(),
            RfSource::Write(w) => self.event(w).written_value,
        }
    }

    /// The writes to `loc` in `co` order, starting with the initial one.
    pub fn co_sources(&self, loc: Loc) -> Vec<RfSource> {
        let mut v = vec![RfSource::Init];
        if let Some(ws) = self.co.get(&loc) {
            v.extend(ws.iter().map(|w| RfSource::Write(*w)));
        }
        v
    }

    /// The value of every touched location at the end: its `co`-last write.
    pub fn final_memory(&self) -> BTreeMap<Loc, Value> {
        self.init
            .iter()
            .map(|(loc, init)| {
                let v = self
                    .co
                    .get(loc)
                    .and_then(|ws| ws.last())
                    .and_then(|w| self.event(*w).written_value)
                    .unwrap_or(*init);
                (*loc, v)
            })
            .collect()
    }
}
