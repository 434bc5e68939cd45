//! Spin-assume: recognising, while a thread runs, a loop iteration that
//! changed nothing and is about to repeat (GenMC's spin-assume, made
//! dynamic; seed 000 §5 runs GPUMC on GenMC, whose await loops are
//! handled this way).
//!
//! # What is cut
//!
//! When a thread takes the back edge of a loop (it is about to start
//! another iteration), the iteration that just ended is *wasted* when
//!
//! 1. its shared-memory events were all reads: loads of any kind,
//!    compare-and-swaps that failed (which are reads, seed 000 §3), or,
//!    when [`crate::ThreadConfig::idle_updates_read`] is set, *idle
//!    updates*: RMWs or CASes that wrote the value they read
//!    (`atomicExch(&lock, 1)` reading 1, `atomicAdd(x, 0)`); no store, no
//!    other RMW or successful CAS, no fence, no barrier, no unknown value
//!    (so no effect on memory or on other threads' `hb`); and every read
//!    after the first was of a *quiet* array ([`crate::quiet`]: every
//!    access of the kernel to it is atomic with a scope that includes
//!    every thread that can reach it, so it can never race), or there was
//!    at most one read when [`crate::ThreadConfig::quiet_reads`] is off
//!    (no array is quiet then), and
//! 2. the thread is where it was when the iteration started: the same loop
//!    position (by construction), the same values of every variable live
//!    there ([`crate::liveness`]), the same local memory.
//!
//! The thread then stops with [`crate::Step::Blocked`] (reason
//! [`crate::BlockReason::SpinLoop`], with the iteration's number of
//! reads); an explorer keeps the execution's
//! events (a later write may revisit the read, so that the thread reads a
//! newer value and leaves the loop) but does not count it as complete.
//!
//! # Why no error is lost (safety properties)
//!
//! Let `G` be a complete consistent execution in which some thread `T`
//! runs a wasted iteration `I` and then goes on. Deleting `I`'s event (a
//! read nobody reads from) gives `G'`: `T` continues from the same state,
//! so it performs the same events afterwards; `G'` is consistent, because
//! every SRC11 relation of `G'` is contained in `G`'s and the axioms only
//! forbid cycles; and every loop runs no more iterations than in `G`.
//! Repeating this removes every wasted iteration, giving an execution the
//! explorer visits in full. Hence:
//!
//! - an **assertion failure, fault or barrier divergence** of `G` is in
//!   `G'` (wasted iterations contain none: they end by looping back);
//! - a **race** between two events outside wasted iterations stays a race
//!   (`hb` only shrinks);
//! - a **race between `I`'s read `a` and a write `b`**: if `b` does not
//!   depend (`po ∪ rf`) on `T` leaving `I`, the prefix of `G` up to `a`
//!   and `b`, with `T` stopped after `I`, is a blocked execution the
//!   explorer visits, and the explorer reports races of blocked executions.
//!   If `b` does depend on it, the iteration `J` that follows the wasted
//!   ones starts in the same state, so its first event `a'` is the same
//!   access (statement, location, atomicity, scope) as `a`; `b` cannot
//!   happen before `a'` (that would close a `po ∪ rf` cycle, which
//!   (No-Thin-Air) forbids, as `hb ⊆ (po ∪ rf)⁺`), and `a'` cannot happen
//!   before `b` without `a` doing so, so `a'` and `b` race in `G'`.
//!
//! An idle update `u` (reading `w`, writing `w`'s value) is deleted the
//! same way, and each read that read from `u` reads from `w` instead, the
//! same value. `u` sits immediately after `w` in `co` (atomicity), so `co`
//! and `fr` only lose `u`; `w`'s release sequences are those of `u` less
//! `u`, so `sw` is contained in `G`'s provided `rf ∩ incl` links `w` to
//! each such read whenever `w → u → read` were linked. That holds when
//! every atomic of the launch has a scope that includes every thread
//! (then `incl` holds between any two atomics on one location and SRC11
//! is RC11 on them); otherwise a block-scoped `w` read by a block-scoped
//! read of its own block through another block's update would gain an
//! `sw` edge, and `hb` could grow. The explorer sets the flag only then
//! (`warpsafe_mc::scope::atomics_include_every_thread`).
//!
//! The last case is why only an iteration's *first* read may be of an
//! array that can race: `J` repeats `I`'s first access, but after its
//! first read `J` may take another path and never repeat the second (a
//! plain read of `q` in a wasted iteration may race with a write of `q`
//! made only once the thread left the loop). A later read of a quiet
//! array races with nothing, so the case does not arise for it.
//!
//! A cut thread *hangs* (`warpsafe_mc::findings`) when every read of its
//! wasted iteration read the latest value of its location: repeating the
//! iteration then reads the same values forever. The iteration's number of
//! reads travels with the cut for that judgement.
//!
//! Invariant: a snapshot is taken at every iteration start of every loop
//! (when spin-assume is on) and compared only at that loop's back edge.

use crate::local::LocalMemory;
use crate::value::Value;
use warpsafe_ir::VarId;

/// Shared-memory events a thread performed so far, by effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct EventCounts {
    /// Loads, failed compare-and-swaps and idle updates (an update counts
    /// as a read until its old value shows that it changed memory).
    pub reads: u64,
    /// Every other event (stores, other RMWs and CAS, fences, barriers,
    /// unknown values).
    pub effects: u64,
    /// The number (as `reads` counted it) of the latest read of an array
    /// that is not quiet; 0 when there was none. An update that turns out
    /// to be an effect leaves it as it was: the iteration it fell in has
    /// an effect, and a later iteration allows its first read to be loud
    /// anyway, so a number at most one past its start changes nothing.
    pub loud_read: u64,
}

/// The thread as it was when an iteration started.
#[derive(Clone, Debug)]
pub(crate) struct IterSnapshot {
    /// The live variables' values, in [`crate::liveness`] order.
    vars: Vec<Option<Value>>,
    locals: LocalMemory,
    counts: EventCounts,
}

impl IterSnapshot {
    pub fn take(
        live: &[VarId],
        vars: &[Option<Value>],
        locals: &LocalMemory,
        counts: EventCounts,
    ) -> IterSnapshot {
        IterSnapshot {
            vars: live_values(live, vars),
            locals: locals.clone(),
            counts,
        }
    }

    /// Takes the snapshot again at a new iteration's start, reusing its
    /// memory (a loop takes one per iteration).
    pub fn retake(
        &mut self,
        live: &[VarId],
        vars: &[Option<Value>],
        locals: &LocalMemory,
        counts: EventCounts,
    ) {
        self.vars.clear();
        self.vars.extend(live.iter().map(|v| live_value(vars, *v)));
        self.locals.clone_from(locals);
        self.counts = counts;
    }

    /// Whether the iteration since the snapshot was wasted (see the module
    /// docs): no effect, no loud read but its first, the same live state.
    /// `Some(reads)`, the iteration's number of reads, when it was.
    pub fn wasted(
        &self,
        live: &[VarId],
        vars: &[Option<Value>],
        locals: &LocalMemory,
        counts: EventCounts,
    ) -> Option<u64> {
        let wasted = counts.effects == self.counts.effects
            && counts.loud_read <= self.counts.reads + 1
            && self.vars.len() == live.len()
            && self
                .vars
                .iter()
                .zip(live)
                .all(|(was, v)| *was == live_value(vars, *v))
            && self.locals.same_contents(locals);
        wasted.then(|| counts.reads.saturating_sub(self.counts.reads))
    }
}

fn live_values(live: &[VarId], vars: &[Option<Value>]) -> Vec<Option<Value>> {
    live.iter().map(|v| live_value(vars, *v)).collect()
}

/// The value of live variable `v` (none while unassigned).
fn live_value(vars: &[Option<Value>], v: VarId) -> Option<Value> {
    vars.get(v.0 as usize).copied().flatten()
}
