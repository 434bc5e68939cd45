//! What a thread tells its driver: the events that need shared state or
//! other threads, and how the thread ended.
//!
//! Seed 000 §3 (events of an execution): every read, write, RMW and fence of
//! *shared* memory (global, shared, constant) is an [`Event`] here, with the
//! location, value, memory order and scope the model checker's execution
//! graph needs; the driver decides what a read returns (its `rf` choice) and
//! when the thread runs next. Seed 003 §4 (CD scheduling): barriers and
//! atomics are the points where the delay-bounded explorer interleaves.
//! Thread-private work (arithmetic, local arrays, control flow) never shows
//! up as an event.
//!
//! Protocol: after `Load`, `Rmw`, `Cas`, `Havoc` and a `Barrier` with a
//! reduction, the thread waits for the matching `resume_*` call (see
//! [`Awaiting`]); after `Store`, `Fence` and a plain `Barrier` the driver
//! just calls `step` again when it lets the thread continue.

use crate::value::Value;
use warpsafe_ir::{AccessKind, ArrayId, MemOrder, ReduceOp, RmwOp, ScalarTy, Scope, Span, VarId};

/// One scalar slot of shared state: `array[index]`, index in slots.
///
/// For a `MemSpace::Shared` array each block has its own instance: the
/// driver must qualify the location with the thread's block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    pub array: ArrayId,
    pub index: u64,
}

/// Which threads a barrier waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Barrier {
    /// Every thread of the block (`__syncthreads`).
    Block,
    /// The threads of this thread's warp named by `mask` (`__syncwarp`).
    Warp { mask: u32 },
    /// This thread's tile of `size` threads (`tiled_partition<size>`).
    Tile { size: u32 },
    /// Every thread of the grid (`this_grid().sync()`).
    Grid,
}

/// An event and the statement it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub span: Span,
    /// The statement's identity: two threads at one [`StmtSite`] are at the
    /// same program point (what block barriers are matched by).
    pub site: StmtSite,
}

/// The identity of one IR statement of a kernel (its address in the
/// kernel, which outlives the threads). Unlike spans, two inlined copies
/// of one function's statement are two sites.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StmtSite(usize);

impl StmtSite {
    pub(crate) fn of(stmt: &warpsafe_ir::Stmt) -> StmtSite {
        StmtSite(stmt as *const warpsafe_ir::Stmt as usize)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A read of `loc` as `ty`; resume with [`crate::Thread::resume_load`].
    Load {
        loc: Location,
        ty: ScalarTy,
        access: AccessKind,
    },
    /// A write of `value` (of the slot's access type) to `loc`.
    Store {
        loc: Location,
        value: Value,
        access: AccessKind,
    },
    /// An atomic RMW of `loc` at the type of `operand`; the driver writes
    /// [`crate::apply_rmw`]`(op, old, operand)` and resumes with
    /// [`crate::Thread::resume_rmw`]`(old)`.
    Rmw {
        loc: Location,
        op: RmwOp,
        operand: Value,
        order: MemOrder,
        scope: Scope,
    },
    /// An atomic compare-and-swap (strong); the driver writes `desired` when
    /// [`crate::cas_succeeds`]`(old, expected)` (ordering `order`, else
    /// `failure_order` for the read alone) and resumes with
    /// [`crate::Thread::resume_cas`]`(old)`.
    Cas {
        loc: Location,
        expected: Value,
        desired: Value,
        order: MemOrder,
        failure_order: MemOrder,
        scope: Scope,
    },
    /// The thread arrives at a barrier. With `reduce` (`__syncthreads_count`
    /// and friends: the operation and this thread's predicate) the driver
    /// resumes with [`crate::Thread::resume_barrier`] once all arrived.
    ///
    /// `iterations` is the iteration of each enclosing loop (body starts
    /// since the loop was entered, outermost first). Threads of a block
    /// meet at one `__syncthreads()` only when they arrive at the same
    /// statement ([`Event::site`]) in the same iterations: the same
    /// statement reached in different iterations is barrier divergence.
    Barrier {
        barrier: Barrier,
        reduce: Option<(ReduceOp, bool)>,
        iterations: Vec<u32>,
    },
    Fence {
        order: MemOrder,
        scope: Scope,
    },
    /// A value the thread cannot know (`clock()`, a texture read): the
    /// driver picks any value of `ty` ([`crate::Thread::resume_havoc`]).
    Havoc {
        var: VarId,
        ty: ScalarTy,
        reason: String,
    },
}

impl EventKind {
    /// The slot the event touches, if any.
    pub fn location(&self) -> Option<Location> {
        match self {
            EventKind::Load { loc, .. }
            | EventKind::Store { loc, .. }
            | EventKind::Rmw { loc, .. }
            | EventKind::Cas { loc, .. } => Some(*loc),
            _ => None,
        }
    }
}

/// What one call of [`crate::Thread::step`] ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// The thread needs the driver (see the module docs for resuming).
    Event(Event),
    /// The thread left the kernel (end of body or `return`).
    Done,
    /// An `assert` (or GPUVerify `__assert`) does not hold: a bug found.
    /// The thread stops here.
    AssertionFailed { message: String, span: Span },
    /// An `__assume`/`__requires` does not hold: this execution is not one
    /// the kernel's contract allows, and the driver should discard it.
    Infeasible { span: Span },
    /// The thread stops in the loop at `span` without ending: the loop
    /// bound was reached, or an iteration was wasted (spin-assume). The
    /// driver should keep what happened so far (it happened) but not take
    /// the execution for a complete one.
    Blocked { reason: BlockReason, span: Span },
    /// With [`crate::ThreadConfig::spin_yield`]: the thread is about to
    /// repeat a wasted iteration of the await loop at `span` (see
    /// [`crate::spin`]); it may be stepped again, and is worth stepping
    /// once another thread changed memory. `reads`: the wasted
    /// iteration's number of reads.
    Yield { span: Span, reads: u32 },
}

/// Why a thread was stopped in a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockReason {
    /// The loop's body would start more than `bound` times in one entry of
    /// the loop ([`crate::ThreadConfig::loop_bound`]).
    LoopBound { bound: u32 },
    /// The iteration that just ended only read (`reads` times), changed
    /// nothing, and is about to repeat (see [`crate::spin`]).
    SpinLoop { reads: u32 },
}

/// What a paused thread waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Awaiting {
    /// The value read, of type `ty`.
    Load { ty: ScalarTy },
    /// The old value of an RMW, of type `ty`.
    Rmw { ty: ScalarTy },
    /// The old value of a CAS, of type `ty`.
    Cas { ty: ScalarTy },
    /// Any value of type `ty`.
    Havoc { ty: ScalarTy },
    /// The `i32` result of a barrier reduction.
    BarrierReduction,
}

impl Awaiting {
    pub fn name(self) -> &'static str {
        match self {
            Awaiting::Load { .. } => "a loaded value",
            Awaiting::Rmw { .. } => "the old value of an atomic",
            Awaiting::Cas { .. } => "the old value of a compare-and-swap",
            Awaiting::Havoc { .. } => "an arbitrary value",
            Awaiting::BarrierReduction => "a barrier reduction",
        }
    }
}
