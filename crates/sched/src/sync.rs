//! Synchronisation through memory: what release writes publish and
//! acquire reads learn (RC11's `sw`, seed 000 §3, on one SC schedule).
//!
//! A location keeps the publications of the writes its current value
//! belongs to: the last write's own (a release write, or a relaxed atomic
//! write after a release fence of its thread), and, when that write is an
//! RMW, the publications of the write it read (a release sequence
//! continues through RMWs, and through later atomic writes of the
//! releasing thread). An acquire read learns every publication whose
//! releasing thread and scope and the reader's include each other
//! (`incl`); a relaxed atomic read keeps them until its thread's next
//! acquire fence. A plain write ends the release sequence.

use crate::clock::Vc;
use warpsafe_ir::{MemOrder, Scope};
use warpsafe_mc::scope::scope_includes;
use warpsafe_mc::ThreadId;

/// What one release made known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Publication {
    pub thread: ThreadId,
    /// The scope of the releasing write or fence.
    pub scope: Scope,
    pub vc: Vc,
}

impl Publication {
    /// Whether an acquire by `reader` at `scope` synchronises with it.
    pub fn reaches(&self, reader: ThreadId, scope: Scope) -> bool {
        scope_includes(self.scope, self.thread, reader)
            && scope_includes(scope, reader, self.thread)
    }
}

/// The publications a location's current value carries.
#[derive(Clone, Debug, Default)]
pub(crate) struct Released(Vec<Publication>);

impl Released {
    pub fn publications(&self) -> &[Publication] {
        &self.0
    }

    /// A plain write: nothing is published any more.
    pub fn plain_write(&mut self) {
        self.0.clear();
    }

    /// An atomic write by `writer`; `update`: an RMW, which continues the
    /// release sequences of the value it read. A plain atomic write
    /// continues only its own thread's (RC11's `rs`: `[W]; (po|loc)?; [W];
    /// (rf; rmw)*`, as the model checker defines it). `own`: what the
    /// write publishes (as a release write, and for a release fence before
    /// it).
    pub fn atomic_write(
        &mut self,
        writer: ThreadId,
        update: bool,
        own: impl IntoIterator<Item = Publication>,
    ) {
        if !update {
            self.0.retain(|p| p.thread == writer);
        }
        for p in own {
            match self
                .0
                .iter_mut()
                .find(|q| q.thread == p.thread && q.scope == p.scope)
            {
                Some(q) => q.vc.join(&p.vc),
                None => self.0.push(p),
            }
        }
    }
}

/// Whether an access of `order` acquires.
pub(crate) fn acquires(order: MemOrder) -> bool {
    matches!(
        order,
        MemOrder::Acquire | MemOrder::AcqRel | MemOrder::SeqCst
    )
}

/// Whether an access of `order` releases.
pub(crate) fn releases(order: MemOrder) -> bool {
    matches!(
        order,
        MemOrder::Release | MemOrder::AcqRel | MemOrder::SeqCst
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(block: u32, thread: u32) -> ThreadId {
        ThreadId { block, thread }
    }

    #[test]
    fn block_scope_reaches_its_block_only() {
        let p = Publication {
            thread: id(0, 0),
            scope: Scope::Block,
            vc: Vc::default(),
        };
        assert!(p.reaches(id(0, 5), Scope::Block));
        assert!(!p.reaches(id(1, 0), Scope::Device));
        let q = Publication {
            scope: Scope::Device,
            ..p
        };
        assert!(!q.reaches(id(1, 0), Scope::Block));
        assert!(q.reaches(id(1, 0), Scope::Device));
    }

    #[test]
    fn updates_continue_a_release_sequence_and_writes_end_it() {
        let p = |t| Publication {
            thread: id(0, t),
            scope: Scope::Device,
            vc: Vc::default(),
        };
        let mut r = Released::default();
        r.atomic_write(id(0, 0), false, Some(p(0)));
        r.atomic_write(id(0, 2), true, None);
        assert_eq!(r.publications().len(), 1);
        r.atomic_write(id(0, 1), true, Some(p(1)));
        assert_eq!(r.publications().len(), 2);
        // A write of thread 0 continues thread 0's sequence only.
        r.atomic_write(id(0, 0), false, None);
        assert_eq!(r.publications().len(), 1);
        r.atomic_write(id(0, 3), false, None);
        assert!(r.publications().is_empty());
    }
}
