//! Counting loops whose condition is a conjunction (seed 002 §5's loop
//! normalisation, extended): jacobiCudaGraphs' row loops,
//!
//! ```c
//! for (int k = threadIdx.x, i = k + blockIdx.x * 8; k < 8 && i < n;
//!      k += 8, i += 8) { ... }
//! ```
//!
//! are the counting loop of the conjunct `k < 8` with the other conjuncts
//! as an exit at the top of the body, `if (!(i < n)) break;`. The rewrite
//! is exact: IR expressions are pure, so testing `A && B` before an
//! iteration is testing `A`, then `B`, and leaving when either fails. The
//! loop then counts exactly as the loop of `A` does, and may stop early
//! where `B` fails, which `loops.rs` handles as it does any `break` (the
//! counting range stays exact only where a loop that stops early is valid;
//! a counting loop with barriers that may stop early is one of unknown
//! length). Variables stepped along with the counter (`i` above) keep
//! their exact values (`induction.rs`: a `break` ends the loop, it skips
//! no update of an iteration that goes on).
//!
//! Only for a loop that tests its condition before the body with no header
//! (what `shape::recognise` needs anyway); the counting conjunct is the
//! first one `recognise` accepts.

use crate::loops::LoopParts;
use crate::shape::recognise;
use warpsafe_ir::{BinOp, Block, Expr, Kernel, LoopCheck, ScalarTy, Stmt, StmtKind};

/// A loop rewritten with one conjunct of its condition as the condition.
pub(crate) struct ConjunctExit {
    /// The counting conjunct.
    pub(crate) cond: Expr,
    /// `if (!(other conjuncts)) break;` followed by the loop's body.
    pub(crate) body: Block,
}

/// The loop `l`, rewritten (see the module comment), or `None` when its
/// condition is no conjunction with a counting conjunct.
pub(crate) fn conjunct_exit(kernel: &Kernel, l: &LoopParts<'_>) -> Option<ConjunctExit> {
    if l.check != LoopCheck::Before || !l.header.is_empty() {
        return None;
    }
    let mut conjuncts = Vec::new();
    flatten(l.cond, &mut conjuncts);
    if conjuncts.len() < 2 {
        return None;
    }
    let at = conjuncts.iter().position(|c| {
        recognise(kernel, l.id, l.kind, l.check, l.header, c, l.body, l.step).is_ok()
    })?;
    let counting = conjuncts.remove(at).clone();
    let rest = conjuncts
        .into_iter()
        .cloned()
        .reduce(|a, b| Expr::binary(BinOp::And, ScalarTy::Bool, a, b))
        .expect("invariant: a conjunction of two or more has one left after removing one");
    let exit = Stmt {
        kind: StmtKind::If {
            cond: Expr::negate(rest),
            then_: vec![Stmt {
                kind: StmtKind::Break(l.id),
                span: l.span,
            }],
            else_: Block::new(),
        },
        span: l.span,
    };
    let mut body = vec![exit];
    body.extend(l.body.iter().cloned());
    Some(ConjunctExit {
        cond: counting,
        body,
    })
}

/// The conjuncts of `e` (`a && (b && c)` gives `a`, `b`, `c`), in order.
fn flatten<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::Binary(BinOp::And, _, a, b) => {
            flatten(a, out);
            flatten(b, out);
        }
        _ => out.push(e),
    }
}
