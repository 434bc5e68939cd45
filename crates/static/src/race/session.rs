//! The solver session of one race check: a solver with the constants
//! every query shares declared once ([`Globals`]: the two threads, the
//! launch, the parameters), the well-formedness context of the
//! synchronized loops its open scopes hold, and the pair class's
//! condition. One check owns one session and passes it by `&mut` to the
//! questions it asks (`uniformity`, `query`).

use super::QueryParts;
use crate::encode::{Shared, ThreadVars};
use crate::protocol::ForLoop;
use crate::stride::Constants;
use crate::universal::{Prelude, Question};
use crate::verdict::RaceScope;
use warpsafe_ir::{LoopId, ScalarTy};
use warpsafe_smt::{term, Solver, Sort, Term};

/// A solver with the global constants declared.
pub(crate) struct Session {
    pub(crate) solver: Solver,
    pub(crate) globals: Globals,
    /// The synchronized loops whose well-formedness context the solver's
    /// open scopes hold (see [`enter_context`]).
    pub(super) context: Vec<ContextLoop>,
    /// The pair class's condition on two threads of one block (see
    /// `groups`), for the two-thread questions.
    pub(crate) class: Option<Term>,
}

/// One synchronized loop of a well-formedness context.
pub(super) struct ContextLoop {
    /// The loop, compared by address only.
    pub(super) ptr: *const ForLoop,
    /// Its variable, shared by the two threads of a block.
    pub(super) var: Term,
    pub(super) id: LoopId,
    /// The constants and constraints of its domain, as asserted (replayed
    /// in a question about every launch, see `universal`).
    pub(super) decls: Vec<(String, Sort)>,
    pub(super) constraints: Vec<Term>,
}

impl Session {
    /// The question "for every launch?" of a query in the current context:
    /// the context loops' domains come first, as they were asserted.
    pub(super) fn question(&self, parts: QueryParts) -> Question {
        Question {
            decls: self
                .context
                .iter()
                .flat_map(|c| c.decls.iter().cloned())
                .chain(parts.decls)
                .collect(),
            reach: self
                .context
                .iter()
                .flat_map(|c| c.constraints.iter().cloned())
                .chain(parts.reach)
                .collect(),
            collide: parts.goal,
            across: None,
        }
    }

    /// The two threads are in one block.
    pub(super) fn same_block(&self) -> Term {
        self.globals.same_block()
    }

    /// What a race query over `scope` asserts of its two threads: they are
    /// two threads, of one block (and of the pair class, if any) or of two.
    pub(crate) fn scope_constraints(&self, scope: RaceScope) -> [Term; 2] {
        let [t1, t2] = &self.globals.threads;
        let same_block = self.same_block();
        let same_thread =
            term::and((0..3).map(|d| term::eq(t1.thread_idx[d].clone(), t2.thread_idx[d].clone())));
        [
            term::not(term::and([same_block.clone(), same_thread])),
            match scope {
                RaceScope::SameBlock => {
                    term::and([same_block].into_iter().chain(self.class.clone()))
                }
                RaceScope::CrossBlock => term::not(same_block),
            },
        ]
    }
}

/// The constants every query shares.
pub(crate) struct Globals {
    /// What is constant in this check (which strides are ground).
    pub(crate) constants: Constants,
    pub(crate) shared: Shared,
    pub(crate) threads: [ThreadVars; 2],
    /// Scalar parameters: name, type, constant.
    pub(crate) params: Vec<(String, ScalarTy, Term)>,
    /// What the session was sent to set these up (see `universal`).
    pub(crate) prelude: Prelude,
}

impl Globals {
    /// The two threads are in one block.
    pub(crate) fn same_block(&self) -> Term {
        let [t1, t2] = &self.threads;
        term::and((0..3).map(|d| term::eq(t1.block_idx[d].clone(), t2.block_idx[d].clone())))
    }
}
