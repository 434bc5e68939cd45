//! How `volatile` accesses are read before an engine runs (`--volatile`).
//!
//! CUDA gives `volatile` two readings. Race checkers (GPUVerify, Faial) and
//! most users treat a volatile access as an ordinary one that the compiler
//! may not cache in a register: two of them on one location, one a write,
//! unordered, race. PTX compiles it to `ld.volatile`/`st.volatile`, which
//! its memory model reads as relaxed atomics at system scope: they never
//! race with each other (only with plain accesses) and synchronise nothing
//! by themselves (fences can). The front end keeps [`AccessKind::Volatile`];
//! this pass rewrites every such access into one reading, so that `check`
//! and `explore` see the same kernel and agree on it.
//!
//! Invariant: after [`Kernel::read_volatile_as`] no statement of the
//! kernel carries [`AccessKind::Volatile`].

use crate::{AccessKind, Block, Kernel, MemOrder, Scope, StmtKind};

/// The reading of `volatile` accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VolatileReading {
    /// Plain (non-atomic) accesses: they race like any other.
    #[default]
    Plain,
    /// Relaxed atomics at system scope (PTX's reading).
    Atomic,
}

impl VolatileReading {
    /// `plain` or `atomic`, as the flag spells it.
    pub fn name(self) -> &'static str {
        match self {
            VolatileReading::Plain => "plain",
            VolatileReading::Atomic => "atomic",
        }
    }

    /// The reading a flag names (`plain`, `atomic`).
    pub fn from_name(name: &str) -> Option<VolatileReading> {
        [VolatileReading::Plain, VolatileReading::Atomic]
            .into_iter()
            .find(|r| r.name() == name)
    }

    /// The access kind a volatile access becomes.
    pub fn access(self) -> AccessKind {
        match self {
            VolatileReading::Plain => AccessKind::Plain,
            VolatileReading::Atomic => AccessKind::Atomic {
                order: MemOrder::Relaxed,
                scope: Scope::System,
            },
        }
    }

    /// What a report says about a kernel with volatile accesses.
    pub fn note(self) -> &'static str {
        match self {
            VolatileReading::Plain => {
                "volatile accesses are read as plain accesses: they race like any other \
                 (--volatile atomic reads them as PTX does, relaxed system-scope atomics)"
            }
            VolatileReading::Atomic => {
                "volatile accesses are read as relaxed system-scope atomics (PTX's reading, \
                 --volatile atomic): they do not race with each other, only with plain accesses"
            }
        }
    }
}

impl Kernel {
    /// Rewrites every volatile load and store into `reading`; whether the
    /// kernel had any.
    /// Records the reading in [`Kernel::volatile_read_as`] when it had any.
    pub fn read_volatile_as(&mut self, reading: VolatileReading) -> bool {
        let any = rewrite(&mut self.body, reading.access());
        if any {
            self.volatile_read_as = Some(reading);
        }
        any
    }
}

fn rewrite(block: &mut Block, to: AccessKind) -> bool {
    let mut any = false;
    for stmt in block.iter_mut() {
        match &mut stmt.kind {
            StmtKind::Load { access, .. } | StmtKind::Store { access, .. }
                if *access == AccessKind::Volatile =>
            {
                *access = to;
                any = true;
            }
            StmtKind::If { then_, else_, .. } => {
                any |= rewrite(then_, to);
                any |= rewrite(else_, to);
            }
            StmtKind::Loop {
                header, body, step, ..
            } => {
                any |= rewrite(header, to);
                any |= rewrite(body, to);
                any |= rewrite(step, to);
            }
            _ => {}
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ArrayId, Expr, MemRef, ScalarTy, Stmt, VarId};

    fn load(access: AccessKind) -> Stmt {
        Stmt {
            kind: StmtKind::Load {
                dst: VarId(0),
                mem: MemRef {
                    array: ArrayId(0),
                    index: Expr::int(0, ScalarTy::I32),
                    ty: ScalarTy::I32,
                },
                access,
            },
            span: crate::Span::new(warpsafe_source::FileId(0), 0, 0),
        }
    }

    #[test]
    fn nested_volatile_accesses_take_the_reading_and_others_stay() {
        let relaxed = AccessKind::Atomic {
            order: MemOrder::Relaxed,
            scope: Scope::Block,
        };
        let mut body = vec![
            load(AccessKind::Plain),
            Stmt {
                kind: StmtKind::If {
                    cond: Expr::bool(true),
                    then_: vec![load(AccessKind::Volatile)],
                    else_: vec![load(relaxed)],
                },
                span: crate::Span::new(warpsafe_source::FileId(0), 0, 0),
            },
        ];
        assert!(rewrite(&mut body, VolatileReading::Atomic.access()));
        let mut kinds = Vec::new();
        crate::walk_block(&body, &mut |s| {
            if let StmtKind::Load { access, .. } = &s.kind {
                kinds.push(*access);
            }
        });
        assert_eq!(
            kinds,
            vec![AccessKind::Plain, VolatileReading::Atomic.access(), relaxed]
        );
        assert!(!rewrite(&mut body, VolatileReading::Plain.access()));
    }
}
