//! Happens-before within one schedule: sparse vector clocks that know
//! barriers by their count.
//!
//! Seed 003 §4 runs a kernel in its canonical schedule and checks races
//! among the accesses of each barrier interval. Here `hb` is exact for the
//! schedule that ran (an SC execution, so RC11's `hb` of that execution):
//! program order, block barriers, warp and tile barriers, grid barriers,
//! and `sw` from release writes (or release fences before a write) read by
//! acquire reads (or reads followed by an acquire fence), through RMW
//! release sequences, when the two ends' scopes include each other.
//!
//! Costs: an access is stamped with O(1) data ([`Stamp`]); a thread's
//! knowledge of others ([`Vc`]) holds only what atomics told it, plus one
//! count per block whose barriers it learnt about. A kernel without
//! atomics keeps every `Vc` empty, so a block barrier costs O(threads of
//! the block) and a whole run stays linear in its events.
//!
//! Invariant: `Stamp::clock` of a thread's access is the thread's clock
//! when it accessed; a release publishes the clock and then increments it,
//! so a thread that acquired the publication knows every access up to the
//! release and none after it.

use std::collections::BTreeMap;

/// When an access happened, as far as ordering is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The thread's linear index in the grid.
    pub thread: u32,
    pub block: u32,
    pub clock: u32,
    /// Block barriers its block had completed.
    pub block_epoch: u32,
    /// Grid barriers completed.
    pub grid_epoch: u32,
}

/// What a thread knows to have happened before its next event, beyond its
/// own block's barriers and the grid's: per thread, the last clock it
/// knows of; per block, how many of that block's barriers it knows were
/// completed before.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Vc {
    threads: BTreeMap<u32, u32>,
    blocks: BTreeMap<u32, u32>,
}

impl Vc {
    pub fn is_empty(&self) -> bool {
        self.threads.is_empty() && self.blocks.is_empty()
    }

    /// Learns everything `other` knows.
    pub fn join(&mut self, other: &Vc) {
        for (t, c) in &other.threads {
            let e = self.threads.entry(*t).or_insert(*c);
            *e = (*e).max(*c);
        }
        for (b, n) in &other.blocks {
            let e = self.blocks.entry(*b).or_insert(*n);
            *e = (*e).max(*n);
        }
    }

    /// Learns that thread `thread` reached clock `clock`.
    pub fn learn_thread(&mut self, thread: u32, clock: u32) {
        let e = self.threads.entry(thread).or_insert(clock);
        *e = (*e).max(clock);
    }

    /// Learns that block `block` completed `epoch` barriers.
    pub fn learn_block(&mut self, block: u32, epoch: u32) {
        let e = self.blocks.entry(block).or_insert(epoch);
        *e = (*e).max(epoch);
    }

    /// Whether the access `s` is known to have happened before.
    pub fn knows(&self, s: &Stamp) -> bool {
        self.threads.get(&s.thread).is_some_and(|c| *c >= s.clock)
            || self
                .blocks
                .get(&s.block)
                .is_some_and(|n| *n > s.block_epoch)
    }
}

/// Where a thread stands for ordering: its stamp for the next access, and
/// what it knows.
#[derive(Clone, Debug, Default)]
pub(crate) struct ThreadClock {
    pub clock: u32,
    pub vc: Vc,
}

impl ThreadClock {
    /// What a release by this thread publishes (thread `thread` of block
    /// `block`, whose block completed `block_epoch` barriers): all it
    /// knows and itself up to now. The clock then moves on.
    pub fn release(&mut self, thread: u32, block: u32, block_epoch: u32) -> Vc {
        let mut v = self.vc.clone();
        v.learn_thread(thread, self.clock);
        v.learn_block(block, block_epoch);
        self.clock += 1;
        v
    }
}

/// Whether `earlier` happens before an access now by thread `now` (stamp
/// fields of the current moment, knowledge `vc`).
pub(crate) fn ordered(earlier: &Stamp, now: &Stamp, vc: &Vc) -> bool {
    earlier.thread == now.thread
        || earlier.grid_epoch < now.grid_epoch
        || (earlier.block == now.block && earlier.block_epoch < now.block_epoch)
        || vc.knows(earlier)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(thread: u32, block: u32, clock: u32, block_epoch: u32) -> Stamp {
        Stamp {
            thread,
            block,
            clock,
            block_epoch,
            grid_epoch: 0,
        }
    }

    #[test]
    fn a_release_covers_accesses_before_it_only() {
        let mut a = ThreadClock::default();
        let before = stamp(0, 0, a.clock, 0);
        let published = a.release(0, 0, 0);
        let after = stamp(0, 0, a.clock, 0);
        let reader = stamp(5, 1, 0, 0);
        assert!(ordered(&before, &reader, &published));
        assert!(!ordered(&after, &reader, &published));
        assert!(!ordered(&before, &reader, &Vc::default()));
    }

    #[test]
    fn barriers_order_their_block_only() {
        let x = stamp(1, 0, 0, 0);
        assert!(ordered(&x, &stamp(2, 0, 0, 1), &Vc::default()));
        assert!(!ordered(&x, &stamp(2, 0, 0, 0), &Vc::default()));
        assert!(!ordered(&x, &stamp(9, 1, 0, 1), &Vc::default()));
        // Another block learns of block 0's first barrier through an atomic.
        let mut vc = Vc::default();
        vc.learn_block(0, 1);
        assert!(ordered(&x, &stamp(9, 1, 0, 0), &vc));
        let grid = Stamp {
            grid_epoch: 1,
            ..stamp(9, 1, 0, 0)
        };
        assert!(ordered(&x, &grid, &Vc::default()));
    }
}
