//! Scope inclusion (seed 000 §2 "heterogeneous race", §3 "RC11 to SRC11").
//!
//! A CUDA scope names a set of threads relative to the thread performing the
//! operation:
//!
//! | scope              | threads it includes                                  |
//! |--------------------|------------------------------------------------------|
//! | `thread`           | the thread itself                                    |
//! | `block` (CTA)      | the threads of the same block                        |
//! | `cluster`          | treated as `block` (no launch here has clusters, and |
//! |                    | a launch without cluster dimensions has clusters of  |
//! |                    | one block)                                           |
//! | `device` (GPU)     | every thread of the grid                             |
//! | `system`           | every thread of the grid (and the host)              |
//!
//! Two events are *scope-inclusive* (the paper's `incl(a, b)`) when (i) both
//! are atomic (non-atomic accesses have no scope; fences count as atomic),
//! (ii) the scope of each includes the thread of the other, and (iii) when
//! both access memory, they access the same location. `incl` is symmetric
//! but not transitive.

use crate::graph::{Event, ThreadId};
use warpsafe_ir::Scope;

/// Whether `scope`, used by thread `of`, includes thread `other`.
pub fn scope_includes(scope: Scope, of: ThreadId, other: ThreadId) -> bool {
    match scope {
        Scope::Thread => of == other,
        Scope::Block | Scope::Cluster => of.block == other.block,
        Scope::Device | Scope::System => true,
    }
}

/// Whether each thread is included in the other's scope (condition (ii)
/// alone): both events must carry a scope, i.e. be atomic or fences.
pub fn threads_inclusive(a: &Event, b: &Event) -> bool {
    match (a.scope, b.scope) {
        (Some(sa), Some(sb)) => {
            scope_includes(sa, a.thread, b.thread) && scope_includes(sb, b.thread, a.thread)
        }
        _ => false,
    }
}

/// The paper's `incl(a, b)`: conditions (i)–(iii) above.
pub fn inclusive(a: &Event, b: &Event) -> bool {
    if let (Some(la), Some(lb)) = (a.loc, b.loc) {
        if la != lb {
            return false;
        }
    }
    threads_inclusive(a, b)
}

/// Whether every atomic access of `kernel` (volatile ones included: they
/// are system-scope atomics) has a scope that includes every thread of a
/// launch of `blocks` blocks of `threads_per_block` threads. Then `incl`
/// holds between any two atomics on one location, and SRC11 is RC11 on
/// them: spin-assume may treat an update that writes the value it read as
/// a read (`warpsafe_interp::spin`).
pub fn atomics_include_every_thread(
    kernel: &warpsafe_ir::Kernel,
    blocks: u64,
    threads_per_block: u64,
) -> bool {
    use warpsafe_ir::{AccessKind, StmtKind};
    // The first and the last thread are the farthest apart: a scope that
    // includes one from the other includes every thread.
    let first = ThreadId {
        block: 0,
        thread: 0,
    };
    let last = ThreadId {
        block: blocks.saturating_sub(1).min(u64::from(u32::MAX)) as u32,
        thread: threads_per_block.saturating_sub(1).min(u64::from(u32::MAX)) as u32,
    };
    let covers = |scope: Scope| scope_includes(scope, first, last);
    let mut all = true;
    kernel.walk(&mut |s| {
        let scope = match &s.kind {
            StmtKind::Load { access, .. } | StmtKind::Store { access, .. } => match access {
                AccessKind::Atomic { scope, .. } => Some(*scope),
                AccessKind::Plain | AccessKind::Volatile => None,
            },
            StmtKind::Rmw { scope, .. } | StmtKind::Cas { scope, .. } => Some(*scope),
            _ => None,
        };
        all &= scope.is_none_or(covers);
    });
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_include_by_hierarchy() {
        let t = |block, thread| ThreadId { block, thread };
        assert!(scope_includes(Scope::Thread, t(0, 1), t(0, 1)));
        assert!(!scope_includes(Scope::Thread, t(0, 1), t(0, 2)));
        assert!(scope_includes(Scope::Block, t(0, 1), t(0, 2)));
        assert!(!scope_includes(Scope::Block, t(0, 1), t(1, 1)));
        assert!(!scope_includes(Scope::Cluster, t(0, 1), t(1, 1)));
        assert!(scope_includes(Scope::Device, t(0, 1), t(3, 0)));
        assert!(scope_includes(Scope::System, t(0, 1), t(3, 0)));
    }
}
