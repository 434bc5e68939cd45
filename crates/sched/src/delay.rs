//! Delay points and the conflicts that suggest them (seed 003 §2, §4:
//! delay lists, `rec` of conflicting synchronising operations).
//!
//! A delay point names one dynamic atomic access: the `op`-th atomic
//! access (from 0) of one thread. It names the same access in a re-run as
//! long as the thread's earlier atomics ran the same way, which is what
//! seed 003's instruction-based points assume too (its footnote 5), made
//! exact for loops.
//!
//! Once a schedule has taken all its delays, every pair of atomic accesses
//! of different threads to one location, one of them writing, is a
//! conflict (seed 003's `rec` compares an access with the whole read-write
//! set, not only the last write: delaying a thread at an earlier read of
//! the location reorders that read too); the earlier access of each pair
//! is a point where delaying its thread reorders the pair. Points are kept
//! in the order first found and each once.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use warpsafe_mc::Loc;

/// The `op`-th atomic access of the thread with linear index `thread`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DelayPoint {
    pub thread: u32,
    pub op: u32,
}

/// The most recent atomic accesses of one location a new access is
/// compared with: all of them for the small launches seed 003 explores,
/// the latest [`HISTORY`] on large ones (a counter every thread of a big
/// grid increments would otherwise cost quadratic time).
pub const HISTORY: usize = 64;

/// Conflicts between atomic accesses, as delay points.
#[derive(Clone, Debug, Default)]
pub(crate) struct Conflicts {
    /// Per location, recent accesses and whether each wrote.
    logs: FxHashMap<Loc, VecDeque<(DelayPoint, bool)>>,
    points: Vec<DelayPoint>,
    seen: FxHashSet<DelayPoint>,
}

impl Conflicts {
    /// An atomic access `p` of `loc` (`write`: it writes). Every earlier
    /// access of another thread that conflicts with it (one of the two
    /// writes) is a point: delaying that thread there lets `p` go first.
    pub fn access(&mut self, loc: Loc, p: DelayPoint, write: bool) {
        let log = self.logs.entry(loc).or_default();
        for &(q, wrote) in log.iter() {
            if q.thread != p.thread && (write || wrote) && self.seen.insert(q) {
                self.points.push(q);
            }
        }
        if log.len() == HISTORY {
            log.pop_front();
        }
        log.push_back((p, write));
    }

    /// The delay points found, in the order found.
    pub fn into_points(self) -> Vec<DelayPoint> {
        self.points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::ArrayId;

    #[test]
    fn the_earlier_access_of_each_conflict_is_a_point() {
        let loc = Loc {
            array: ArrayId(0),
            index: 0,
            block: None,
        };
        let p = |thread, op| DelayPoint { thread, op };
        let mut c = Conflicts::default();
        c.access(loc, p(0, 0), false);
        c.access(loc, p(0, 1), true);
        c.access(loc, p(1, 0), false);
        c.access(loc, p(2, 0), true);
        c.access(loc, p(2, 1), true);
        // Thread 1's read conflicts with thread 0's write; thread 2's
        // write with every earlier access of threads 0 and 1.
        assert_eq!(c.into_points(), [p(0, 1), p(0, 0), p(1, 0)]);
    }
}
