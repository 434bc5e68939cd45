//! Derived induction variables of counting loops (seed 002 §5's loop
//! normalisation, extended): in `for (i = lo; i < n; i += s) { ...; v += k;
//! ... }` with `k` loop-invariant and the update run once in every
//! iteration, `v` at the start of the iteration where the loop variable is
//! `i` is `v0 + ((i - lo) / s) * k`, not an unknown. Shared-memory indices
//! and pointers stepped along with a loop (`shmem_idx += LINES`, `od += w`)
//! then keep exact indices, so their accesses are proven apart instead of
//! "depends on `v`, modified in a loop".
//!
//! Invariants (soundness):
//! - Only for a loop whose range is exact unconditionally (`valid` is
//!   true): there the loop variable of iteration `t` is exactly
//!   `start ± t * s`, so `t` is recovered by one division. Where a loop
//!   falls back to an unknown counter (a loop that may stop early around
//!   barriers), the counter takes every value the loop variable can, so
//!   the formula still covers every `v` the loop makes.
//! - Only for an update `v = v ± k` that is the one assignment of `v` in
//!   the loop, at the top level of the body or the step, in a loop with no
//!   `continue` in its body when it is in the body (a `continue` could skip
//!   it). `k` reads no variable the loop assigns and no memory.
//! - The arithmetic is `v`'s own, wrapping: `t` increments of `k` are
//!   `t * k` modulo 2^bits, exactly what the repeated updates compute.

use crate::env::Env;
use crate::infer::Infer;
use crate::protocol::Step;
use crate::shape::{assignments, continues};
use crate::sym::Sym;
use std::collections::BTreeSet;
use warpsafe_ir::{BinOp, Block, Expr, LoopId, ScalarTy, Span, StmtKind, VarId};

/// One derived induction variable: `v = v op k` once per iteration.
struct Update<'a> {
    var: VarId,
    op: BinOp,
    amount: &'a Expr,
}

/// The counting loop a derivation needs: its variable, first value and
/// step.
pub(crate) struct Counter<'a> {
    pub(crate) var: VarId,
    pub(crate) ty: ScalarTy,
    pub(crate) start: &'a Sym,
    pub(crate) step: &'a Step,
    pub(crate) loop_id: LoopId,
}

impl Infer<'_> {
    /// The value at the start of an iteration of every derived induction
    /// variable of the loop (see the module comment), to set in the
    /// loop's store instead of an unknown.
    pub(crate) fn derived_inductions(
        &mut self,
        counter: &Counter<'_>,
        (header, body, step): (&Block, &Block, &Block),
        modified: &BTreeSet<VarId>,
        entry: &Env,
        span: Span,
    ) -> Vec<(VarId, Sym)> {
        let (dir, s) = match counter.step {
            Step::Add(s) => (BinOp::Add, s),
            Step::Sub(s) => (BinOp::Sub, s),
            _ => return Vec::new(),
        };
        let body_continues = continues(body, counter.loop_id);
        let top = body.iter().filter(|_| !body_continues).chain(step.iter());
        let mut out = Vec::new();
        for st in top {
            let Some(u) = update(&st.kind) else {
                continue;
            };
            if u.var == counter.var
                || assignments(&[header, body, step], u.var) != 1
                || u.amount.vars().iter().any(|v| modified.contains(v))
            {
                continue;
            }
            let ty = self.kernel.var(u.var).ty;
            if !ty.is_integer() {
                continue;
            }
            // The iteration number, from the loop variable.
            let i = Sym::LoopVar {
                var: counter.var,
                loop_id: counter.loop_id,
                ty: counter.ty,
            };
            let run = match dir {
                BinOp::Add => Sym::binary(BinOp::Sub, counter.ty, i, counter.start.clone()),
                _ => Sym::binary(BinOp::Sub, counter.ty, counter.start.clone(), i),
            };
            let t = Sym::binary(BinOp::Div, counter.ty, run, s.clone());
            let v0 = self.read(entry, u.var, span);
            let k = self.eval(u.amount, entry, span);
            let moved = Sym::binary(BinOp::Mul, ty, Sym::cast(ty, t), k);
            out.push((u.var, Sym::binary(u.op, ty, v0, moved)));
        }
        out
    }
}

/// `v = v + k`, `v = k + v` or `v = v - k`.
fn update(kind: &StmtKind) -> Option<Update<'_>> {
    let StmtKind::Assign { dst, value } = kind else {
        return None;
    };
    let Expr::Binary(op @ (BinOp::Add | BinOp::Sub), _, a, b) = value else {
        return None;
    };
    let is_dst = |e: &Expr| matches!(e, Expr::Var(v) if v == dst);
    let amount = match (is_dst(a), is_dst(b), op) {
        (true, false, _) => &**b,
        (false, true, BinOp::Add) => &**a,
        _ => return None,
    };
    Some(Update {
        var: *dst,
        op: *op,
        amount,
    })
}
