//! Shadow memory: for each location, the accesses a later access may race
//! with (seed 003 §4's read-write set, kept per location as a dynamic race
//! detector keeps it, so the cost stays linear in the events).
//!
//! A location remembers its last write and the reads since it (the latest
//! read of each thread). An access races with a remembered access of
//! another thread that does not happen before it ([`crate::clock`]) when
//! one of them writes and
//! - one of them is plain: a **data race**;
//! - both are atomic but a scope leaves the other thread out: a
//!   **heterogeneous race** (seed 000 §2.1).
//!
//! Forgetting the reads at a write loses no racy location: a read that
//! races with a later write `w2` but not with the write `w1` before it
//! happens before `w1`, and then `w1` races with `w2` unless `w1` happens
//! before `w2` too, in which case the read does.

use crate::clock::{ordered, Stamp, Vc};
use warpsafe_ir::{Scope, Span};
use warpsafe_mc::scope::scope_includes;
use warpsafe_mc::{RaceKind, ThreadId};

/// One access as the shadow keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub(crate) stamp: Stamp,
    pub thread: ThreadId,
    pub span: Span,
    /// The scope of an atomic access; `None` for a plain one.
    pub atomic: Option<Scope>,
    pub write: bool,
}

/// Scans of the reads for an earlier read of the same thread stop at this
/// many (beyond it a thread's repeated reads may be kept twice, which
/// costs memory but loses nothing).
const READ_SCAN: usize = 16;

#[derive(Clone, Debug, Default)]
pub(crate) struct Shadow {
    write: Option<Access>,
    reads: Vec<Access>,
}

impl Shadow {
    /// Checks `a`, an access now (`vc`: what its thread knows), against the
    /// remembered accesses, reporting each race to `race`, and remembers it.
    pub fn access(&mut self, a: Access, vc: &Vc, race: &mut impl FnMut(RaceKind, &Access)) {
        if let Some(w) = &self.write {
            if let Some(kind) = conflict(w, &a, vc) {
                race(kind, w);
            }
        }
        if a.write {
            for r in &self.reads {
                if let Some(kind) = conflict(r, &a, vc) {
                    race(kind, r);
                }
            }
            self.reads.clear();
            self.write = Some(a);
            return;
        }
        let same = |r: &Access| r.stamp.thread == a.stamp.thread;
        if self.reads.last().is_some_and(same) {
            *self.reads.last_mut().expect("checked non-empty just above") = a;
        } else if let Some(r) = self.reads.iter_mut().take(READ_SCAN).find(|r| same(r)) {
            *r = a;
        } else {
            self.reads.push(a);
        }
    }
}

/// Whether `earlier` and `now` (an access by a thread knowing `vc`) race,
/// and how.
fn conflict(earlier: &Access, now: &Access, vc: &Vc) -> Option<RaceKind> {
    if !(earlier.write || now.write) || ordered(&earlier.stamp, &now.stamp, vc) {
        return None;
    }
    match (earlier.atomic, now.atomic) {
        (Some(se), Some(sn)) => {
            let inclusive = scope_includes(se, earlier.thread, now.thread)
                && scope_includes(sn, now.thread, earlier.thread);
            (!inclusive).then_some(RaceKind::Heterogeneous)
        }
        _ => Some(RaceKind::Data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_source::FileId;

    fn access(thread: u32, block: u32, epoch: u32, write: bool, atomic: Option<Scope>) -> Access {
        Access {
            stamp: Stamp {
                thread,
                block,
                clock: 0,
                block_epoch: epoch,
                grid_epoch: 0,
            },
            thread: ThreadId { block, thread },
            span: Span::new(FileId(0), thread, thread + 1),
            atomic,
            write,
        }
    }

    fn races(shadow: &mut Shadow, a: Access) -> Vec<RaceKind> {
        let mut out = Vec::new();
        shadow.access(a, &Vc::default(), &mut |k, _| out.push(k));
        out
    }

    #[test]
    fn reads_race_with_a_later_unordered_write() {
        let mut s = Shadow::default();
        assert!(races(&mut s, access(0, 0, 0, false, None)).is_empty());
        assert!(races(&mut s, access(1, 0, 0, false, None)).is_empty());
        assert_eq!(
            races(&mut s, access(2, 0, 0, true, None)),
            [RaceKind::Data, RaceKind::Data]
        );
        // After a barrier of the block, nothing races.
        assert!(races(&mut s, access(3, 0, 1, true, None)).is_empty());
    }

    #[test]
    fn atomics_race_only_across_a_scope() {
        let mut s = Shadow::default();
        let block = Some(Scope::Block);
        assert!(races(&mut s, access(0, 0, 0, true, block)).is_empty());
        assert!(races(&mut s, access(1, 0, 0, true, block)).is_empty());
        assert_eq!(
            races(&mut s, access(40, 1, 0, true, Some(Scope::Device))),
            [RaceKind::Heterogeneous]
        );
        assert_eq!(
            races(&mut s, access(41, 1, 0, false, None)),
            [RaceKind::Data]
        );
    }
}
