//! Quiet arrays: arrays no two accesses of which can ever race in a given
//! launch, because every access of the kernel to them is atomic with a
//! scope that includes every thread that can reach the same location
//! (seed 000 §2: a data race needs a non-atomic access, a heterogeneous
//! race two atomics whose scopes do not include each other's thread).
//!
//! Spin-assume ([`crate::spin`]) uses them: a wasted iteration may read
//! any number of times, provided every read after its first is of a quiet
//! array (a test-and-test-and-set retry: a load that saw the lock free,
//! then a failed compare-and-swap).
//!
//! Which threads can reach a location: every thread of the launch for a
//! global array; the threads of one block for a `__shared__` one (each
//! block has its own copy). A scope includes them all when it is `device`
//! or `system`, `block` (or `cluster`, which is a block here, as in
//! `warpsafe_mc::scope`) when they are one block's, and `thread` when the
//! launch has one thread.
//!
//! Invariant: an array is quiet only when the kernel accesses it through
//! `Rmw`, `Cas` and atomic `Load`/`Store` statements alone, each with such
//! a scope; a plain or `volatile` access anywhere (run or not) makes it
//! loud. An array the kernel never accesses is quiet (it has no events).

use crate::ctx::Launch;
use warpsafe_ir::{AccessKind, ArrayId, Kernel, MemSpace, Scope, StmtKind};

/// For each array of a kernel, by [`ArrayId`], whether it is quiet in one
/// launch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct QuietArrays {
    quiet: Vec<bool>,
}

impl QuietArrays {
    /// The quiet arrays of `kernel` launched as `launch`.
    pub fn of(kernel: &Kernel, launch: &Launch) -> QuietArrays {
        let one_block = launch.blocks() <= 1;
        let one_thread = launch.threads() <= 1;
        let mut quiet = vec![true; kernel.arrays.len()];
        kernel.walk(&mut |s| {
            let (mem, scope) = match &s.kind {
                StmtKind::Load { mem, access, .. } | StmtKind::Store { mem, access, .. } => {
                    match access {
                        AccessKind::Atomic { scope, .. } => (mem, Some(*scope)),
                        AccessKind::Plain | AccessKind::Volatile => (mem, None),
                    }
                }
                StmtKind::Rmw { mem, scope, .. } | StmtKind::Cas { mem, scope, .. } => {
                    (mem, Some(*scope))
                }
                _ => return,
            };
            let Some(q) = quiet.get_mut(mem.array.0 as usize) else {
                return;
            };
            let shared = kernel
                .arrays
                .get(mem.array.0 as usize)
                .is_some_and(|a| a.space == MemSpace::Shared);
            let covers = match scope {
                None => false,
                Some(Scope::Device | Scope::System) => true,
                Some(Scope::Block | Scope::Cluster) => shared || one_block,
                Some(Scope::Thread) => one_thread,
            };
            *q &= covers;
        });
        QuietArrays { quiet }
    }

    /// Whether `array` is quiet (an id outside the kernel is not).
    pub fn contains(&self, array: ArrayId) -> bool {
        self.quiet.get(array.0 as usize).copied().unwrap_or(false)
    }
}
