//! Loops that leave at the top of their body: the persistent-block loop of
//! the tensor-core GEMMs,
//!
//! ```c
//! for (unsigned pos = blockIdx.x;; pos += gridDim.x) {
//!     unsigned i = ((pos * 8) / N_TILES) * 8;   // pure assignments
//!     if (i >= M_TILES) break;                  // the exit
//!     ...
//! }
//! ```
//!
//! is the counting loop `for (pos = blockIdx.x; pos < h; pos += gridDim.x)`
//! (seed 002 §5's loop normalisation) when the exit is a monotone test of
//! the counter: here `h = (M_TILES / 8) * (N_TILES / 8)`. The threshold `h`
//! is found by evaluating the exit on constants, so the rewrite is exact:
//!
//! - the exit may read the counter, constants and the pure assignments
//!   before it, through `+` and `*` by non-negative constants, `/`, `>>`,
//!   `<<` by constants, `-` of a constant and casts, compared with a
//!   constant as `f >= M` or `f > M` (so it is false, then true, as the
//!   counter grows, while nothing wraps);
//! - `limit` is the largest counter value at which no step of the exit
//!   wraps, and the exit holds at `limit` (else the loop is not rewritten);
//!   `bound` (`h`) is the smallest value at which it holds;
//! - the rewrite is exact when the counter never leaves `0..=limit` before
//!   it exits: its start is at most `limit`, and so is the first value past
//!   the bound (`bound - 1 + step`). `loops.rs` makes that the loop's
//!   validity condition, so where it fails the loop is kept as one of
//!   unknown length (sound), and where it holds the range is exact.
//!
//! Only unsigned counters of at most 32 bits stepped by `+`, with no header
//! and one update.

use std::collections::HashMap;

use crate::shape::assignments;
use crate::sym::type_range;
use warpsafe_ir::{BinOp, Block, Const, Expr, LoopCheck, LoopId, ScalarTy, StmtKind, VarId};

/// A loop rewritten with its exit as the loop condition.
pub(crate) struct TopExit {
    /// The pure assignments before the exit, run at the top of every
    /// iteration.
    pub(crate) header: Block,
    /// The negated exit: the condition an iteration runs under.
    pub(crate) cond: Expr,
    /// The statements after the exit.
    pub(crate) body: Block,
    /// `counter < bound`, the condition recognised as the counting loop's.
    pub(crate) counted_cond: Expr,
    pub(crate) counter: VarId,
    pub(crate) bound: i128,
    pub(crate) limit: i128,
}

/// The loop `id` with the given parts, rewritten (see the module comment),
/// or `None` when it is not of that shape.
pub(crate) fn top_exit(
    id: LoopId,
    check: LoopCheck,
    (header, cond, body, step): (&Block, &Expr, &Block, &Block),
) -> Option<TopExit> {
    if check != LoopCheck::Before
        || !header.is_empty()
        || !matches!(cond, Expr::Const(Const::Bool(true), _))
    {
        return None;
    }
    // The counter: the step's one update `v = v + s`.
    let [update] = step.as_slice() else {
        return None;
    };
    let StmtKind::Assign {
        dst: counter,
        value,
    } = &update.kind
    else {
        return None;
    };
    let Expr::Binary(BinOp::Add, ty, a, _) = value else {
        return None;
    };
    if !matches!(**a, Expr::Var(v) if v == *counter)
        || ty.is_signed()
        || !ty.is_integer()
        || ty.bits() > 32
    {
        return None;
    }
    // Pure assignments, then `if (exit) break;`.
    let at = body
        .iter()
        .position(|s| !matches!(s.kind, StmtKind::Assign { .. }))?;
    let StmtKind::If {
        cond: exit,
        then_,
        else_,
    } = &body[at].kind
    else {
        return None;
    };
    if !else_.is_empty()
        || !matches!(then_.as_slice(), [b] if matches!(b.kind, StmtKind::Break(l) if l == id))
    {
        return None;
    }
    // Each definition reads only the counter and the definitions before
    // it (so evaluating one terminates), and so does the exit.
    let mut defs: HashMap<VarId, &Expr> = HashMap::new();
    let known = |e: &Expr, defs: &HashMap<VarId, &Expr>| {
        e.vars()
            .iter()
            .all(|v| v == counter || defs.contains_key(v))
    };
    for s in &body[..at] {
        if let StmtKind::Assign { dst, value } = &s.kind {
            if *dst == *counter || defs.contains_key(dst) || !known(value, &defs) {
                return None;
            }
            defs.insert(*dst, value);
        }
    }
    if !known(exit, &defs) {
        return None;
    }
    // Nothing else in the loop assigns the counter or the definitions.
    if assignments(&[body], *counter) != 0
        || defs.keys().any(|d| assignments(&[body, step], *d) != 1)
    {
        return None;
    }
    let ev = Exit {
        counter: *counter,
        defs: &defs,
    };
    let max = type_range(*ty).1;
    // At 0 nothing may wrap (a `- k` would); the largest value without a
    // wrap, by bisection (wrapping only grows with the counter).
    ev.holds(exit, 0)?;
    let limit = first_true(0, max, |x| ev.holds(exit, x).is_none()) - 1;
    if ev.holds(exit, limit) != Some(true) {
        return None;
    }
    let bound = first_true(0, limit, |x| ev.holds(exit, x) == Some(true));
    Some(TopExit {
        header: body[..at].to_vec(),
        cond: Expr::negate(exit.clone()),
        body: body[at + 1..].to_vec(),
        counted_cond: Expr::binary(BinOp::Lt, *ty, Expr::Var(*counter), Expr::int(bound, *ty)),
        counter: *counter,
        bound,
        limit,
    })
}

/// The exit evaluated exactly at one counter value.
struct Exit<'a> {
    counter: VarId,
    defs: &'a HashMap<VarId, &'a Expr>,
}

impl Exit<'_> {
    /// Whether the exit holds at counter value `x`; `None` when a step
    /// wraps or the exit is not of the monotone shape.
    fn holds(&self, exit: &Expr, x: i128) -> Option<bool> {
        let Expr::Binary(op, _, a, b) = exit else {
            return None;
        };
        match (op, b.as_const_int(), a.as_const_int()) {
            (BinOp::Ge, Some(m), None) => Some(self.value(a, x)? >= m),
            (BinOp::Gt, Some(m), None) => Some(self.value(a, x)? > m),
            (BinOp::Le, None, Some(m)) => Some(m <= self.value(b, x)?),
            (BinOp::Lt, None, Some(m)) => Some(m < self.value(b, x)?),
            _ => None,
        }
    }

    /// The exact value of `e`, non-decreasing in the counter; `None` when
    /// it wraps in its type or is of another shape.
    fn value(&self, e: &Expr, x: i128) -> Option<i128> {
        let fits = |v: i128, ty: ScalarTy| {
            let (lo, hi) = type_range(ty);
            (lo..=hi).contains(&v).then_some(v)
        };
        match e {
            Expr::Const(Const::Int(v), _) => Some(*v),
            Expr::Var(v) if *v == self.counter => Some(x),
            Expr::Var(v) => self.value(self.defs.get(v)?, x),
            Expr::Cast(ty, inner) if ty.is_integer() => fits(self.value(inner, x)?, *ty),
            Expr::Binary(op, ty, a, b) => {
                let k = b.as_const_int();
                let v = match (op, a.as_const_int(), k) {
                    (BinOp::Add, None, Some(k)) if k >= 0 => self.value(a, x)? + k,
                    (BinOp::Add, Some(k), None) if k >= 0 => k + self.value(b, x)?,
                    (BinOp::Sub, None, Some(k)) if k >= 0 => self.value(a, x)? - k,
                    (BinOp::Mul, None, Some(k)) if k >= 0 => self.value(a, x)?.checked_mul(k)?,
                    (BinOp::Mul, Some(k), None) if k >= 0 => k.checked_mul(self.value(b, x)?)?,
                    (BinOp::Div, None, Some(k)) if k > 0 => {
                        let v = self.value(a, x)?;
                        if v < 0 {
                            return None;
                        }
                        v / k
                    }
                    (BinOp::Shr, None, Some(k)) if (0..i128::from(ty.bits())).contains(&k) => {
                        let v = self.value(a, x)?;
                        if v < 0 {
                            return None;
                        }
                        v >> k
                    }
                    (BinOp::Shl, None, Some(k)) if (0..i128::from(ty.bits())).contains(&k) => {
                        self.value(a, x)?.checked_mul(1i128 << k)?
                    }
                    _ => return None,
                };
                fits(v, *ty)
            }
            _ => None,
        }
    }
}

/// The smallest `x` in `lo..=hi` with `ok(x)`, or `hi + 1` when there is
/// none, for `ok` false then true (bisection).
fn first_true(lo: i128, hi: i128, ok: impl Fn(i128) -> bool) -> i128 {
    // `ok` is false below `bad` and true at `good`.
    let (mut bad, mut good) = (lo - 1, hi + 1);
    while good - bad > 1 {
        let mid = bad + (good - bad) / 2;
        if ok(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}
