//! Recognising counting loops in the IR (seed 002, §5: loop normalisation):
//! `i = lo; while (i ◇ bound) { body; i = i ⊕ k }` where `◇` is `<`, `<=`,
//! `>`, `>=` or `!=`, `⊕` is `+ - * / << >>`, the loop variable is assigned
//! only by that update, and `bound` and `k` are loop-invariant; also `i + c
//! < bound` and `i + c <= bound` with `c` loop-invariant and a `+` step
//! (`offset + rowStride <= BM`, a tile loaded in rows of `rowStride`).
//!
//! This module only matches syntax; `loops.rs` turns a [`Shape`] into a
//! protocol `For` with the conditions under which it is exact.

use crate::sym::type_range;
use std::collections::BTreeSet;
use warpsafe_ir::{
    BinOp, Block, Expr, Kernel, LoopCheck, LoopId, LoopKind, ScalarTy, StmtKind, VarId,
};

/// A recognised loop: `var test bound`, stepped by `var = var step_op amount`.
pub(crate) struct Shape<'a> {
    pub(crate) var: VarId,
    /// The comparison with the variable on the left.
    pub(crate) test: BinOp,
    pub(crate) bound: &'a Expr,
    pub(crate) step_op: BinOp,
    /// The stride, in the variable's type.
    pub(crate) amount: Expr,
    /// The comparison converts a signed variable to this wider unsigned
    /// type (`int i` against a `size_t n`: `(u64)i < n`); `bound` is of
    /// this type. `loops` makes the range exact only where `i` is not
    /// negative.
    pub(crate) widened: Option<ScalarTy>,
    /// The update is computed in a wider type and converted back
    /// (`short i; i += blockDim.x` is `i = (short)((int)i + blockDim.x)`):
    /// the conversion wraps, defined behaviour even for a signed variable,
    /// so `loops` must not assume it away.
    pub(crate) wraps: bool,
    /// The test compares the variable plus this loop-invariant amount, in
    /// the variable's type (`offset + rowStride <= BM`); `loops` compares
    /// the variable with `bound - offset` where that is exact.
    pub(crate) offset: Option<&'a Expr>,
}

/// Every variable a statement list assigns (nested blocks included).
pub(crate) fn assigned_vars(blocks: &[&Block]) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    for b in blocks {
        warpsafe_ir::walk_block(b, &mut |s| {
            if let Some(v) = s.assigned_var() {
                out.insert(v);
            }
        });
    }
    out
}

/// How many statements of the blocks (nested ones included) assign `v`.
pub(crate) fn assignments(blocks: &[&Block], v: VarId) -> usize {
    let mut n = 0;
    for b in blocks {
        warpsafe_ir::walk_block(b, &mut |s| {
            n += usize::from(s.assigned_var() == Some(v));
        });
    }
    n
}

/// Whether `block` contains `continue` to loop `id`.
pub(crate) fn continues(block: &Block, id: LoopId) -> bool {
    let mut found = false;
    warpsafe_ir::walk_block(block, &mut |s| {
        found |= matches!(s.kind, StmtKind::Continue(l) if l == id);
    });
    found
}

fn mirror(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        op => op,
    }
}

/// `v` or a cast of `v` to a type that holds all its values.
fn as_var(e: &Expr, kernel: &Kernel) -> Option<VarId> {
    match e {
        Expr::Var(v) => Some(*v),
        Expr::Cast(ty, inner) => {
            let Expr::Var(v) = &**inner else { return None };
            let from = kernel.var(*v).ty;
            let (flo, fhi) = type_range(from);
            let (tlo, thi) = type_range(*ty);
            (ty.is_integer() && from.is_integer() && flo >= tlo && fhi <= thi).then_some(*v)
        }
        _ => None,
    }
}

/// `(W)v` with `v` a signed variable and `W` a wider unsigned type: the
/// usual arithmetic conversions of `v < n` for an `int v` and a `size_t n`.
fn as_widened(e: &Expr, kernel: &Kernel) -> Option<(VarId, ScalarTy)> {
    let Expr::Cast(ty, inner) = e else {
        return None;
    };
    let Expr::Var(v) = &**inner else { return None };
    let from = kernel.var(*v).ty;
    (from.is_integer()
        && from.is_signed()
        && ty.is_integer()
        && !ty.is_signed()
        && ty.bits() > from.bits())
    .then_some((*v, *ty))
}

/// Matches a real loop against the counting-loop shape; the error says why
/// it does not match.
#[allow(clippy::too_many_arguments)]
pub(crate) fn recognise<'a>(
    kernel: &Kernel,
    id: LoopId,
    kind: LoopKind,
    check: LoopCheck,
    header: &'a Block,
    cond: &'a Expr,
    body: &'a Block,
    step: &'a Block,
) -> Result<Shape<'a>, String> {
    if check != LoopCheck::Before || !matches!(kind, LoopKind::For | LoopKind::While) {
        return Err("it tests its condition after the body".into());
    }
    if !header.is_empty() {
        return Err("its condition reads memory".into());
    }
    let modified = assigned_vars(&[header, body, step]);
    let Expr::Binary(op, cty, a, b) = cond else {
        return Err("its condition is not a comparison".into());
    };
    if !op.is_comparison() || *op == BinOp::Eq {
        return Err("its condition is not a comparison".into());
    }
    let (var, test, bound, widened, offset) = match (as_var(a, kernel), as_var(b, kernel)) {
        (Some(v), _) if modified.contains(&v) => (v, *op, &**b, None, None),
        (_, Some(v)) if modified.contains(&v) => (v, mirror(*op), &**a, None, None),
        _ => match (as_widened(a, kernel), as_widened(b, kernel)) {
            (Some((v, w)), _) if modified.contains(&v) => (v, *op, &**b, Some(w), None),
            (_, Some((v, w))) if modified.contains(&v) => (v, mirror(*op), &**a, Some(w), None),
            _ => match (
                as_offset(a, kernel, &modified, *cty),
                as_offset(b, kernel, &modified, *cty),
            ) {
                (Some((v, k)), _) => (v, *op, &**b, None, Some(k)),
                (_, Some((v, k))) => (v, mirror(*op), &**a, None, Some(k)),
                _ => {
                    return Err("its condition does not compare a variable the loop updates".into())
                }
            },
        },
    };
    if offset.is_some() && !matches!(test, BinOp::Lt | BinOp::Le) {
        return Err(
            "it compares its variable plus an amount with a test other than < or <=".into(),
        );
    }
    let vty = kernel.var(var).ty;
    if !vty.is_integer() {
        return Err("its variable is not an integer".into());
    }
    // The update: the only assignment to `var` in the loop.
    if assignments(&[header, body, step], var) != 1 {
        return Err("its variable is assigned more than once per iteration".into());
    }
    let update = if let Some(s) = step.iter().find(|s| s.assigned_var() == Some(var)) {
        s
    } else if step.is_empty() && !continues(body, id) {
        match body.last() {
            Some(s) if s.assigned_var() == Some(var) => s,
            _ => return Err("its variable is not updated at the end of the body".into()),
        }
    } else {
        return Err("its variable is not updated at the end of each iteration".into());
    };
    let StmtKind::Assign { value, .. } = &update.kind else {
        return Err("its variable is not updated by arithmetic".into());
    };
    let (step_op, amount, wraps) = match_update(value, var, vty)?;
    if !matches!(
        step_op,
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Shl | BinOp::Shr
    ) {
        return Err(format!(
            "its step `{}` is not + - * / << >>",
            step_op.symbol()
        ));
    }
    let invariant = |e: &Expr| e.vars().iter().all(|v| !modified.contains(v));
    if !invariant(bound) {
        return Err("its bound changes in the loop".into());
    }
    if !invariant(&amount) {
        return Err("its stride changes in the loop".into());
    }
    if offset.is_some() && !matches!(step_op, BinOp::Add) {
        return Err("it compares its variable plus an amount, with a step other than `+`".into());
    }
    if widened.is_some() && !matches!(step_op, BinOp::Add) {
        return Err(
            "it compares its signed variable converted to a wider unsigned type, with a step other than `+`"
                .into(),
        );
    }
    Ok(Shape {
        var,
        test,
        bound,
        step_op,
        amount,
        widened,
        wraps,
        offset,
    })
}

/// `v + k` (or `k + v`) in `v`'s own type, the type of the comparison
/// `cty`, with `v` a variable the loop modifies and `k` one it does not.
fn as_offset<'a>(
    e: &'a Expr,
    kernel: &Kernel,
    modified: &BTreeSet<VarId>,
    cty: ScalarTy,
) -> Option<(VarId, &'a Expr)> {
    let Expr::Binary(BinOp::Add, ty, l, r) = e else {
        return None;
    };
    let invariant = |e: &Expr| e.vars().iter().all(|v| !modified.contains(v));
    let (v, k) = match (&**l, &**r) {
        (Expr::Var(v), k) if modified.contains(v) && invariant(k) => (*v, k),
        (k, Expr::Var(v)) if modified.contains(v) && invariant(k) => (*v, k),
        _ => return None,
    };
    (kernel.var(v).ty == *ty && *ty == cty && ty.is_integer()).then_some((v, k))
}

/// Matches `v = v op k` (or `k op v` for `+`/`*`), also through C's
/// conversions `v = (T)((U)v op k)` where `op` is `+ - *` and `U` has `T`'s
/// width (the same bits either way) or is wider (the low bits are the
/// same: `v op (T)k` wrapping in `T`, whose conversion is defined, so the
/// match says it wraps). Returns `op`, `k` in `v`'s type, and whether the
/// update wraps in `v`'s type even for a signed `v`.
fn match_update(value: &Expr, var: VarId, vty: ScalarTy) -> Result<(BinOp, Expr, bool), String> {
    let direct = |op: BinOp, l: &Expr, r: &Expr, is_var: &dyn Fn(&Expr) -> bool| match (l, r) {
        (l, k) if is_var(l) => Some((op, k.clone())),
        (k, r) if is_var(r) && matches!(op, BinOp::Add | BinOp::Mul) => Some((op, k.clone())),
        _ => None,
    };
    let plain = |e: &Expr| matches!(e, Expr::Var(v) if *v == var);
    match value {
        Expr::Binary(op, ty, l, r) if *ty == vty => direct(*op, l, r, &plain)
            .map(|(op, k)| (op, k, false))
            .ok_or_else(|| "its update is not `i = i op k`".to_string()),
        Expr::Cast(outer, inner) if *outer == vty => {
            let Expr::Binary(op, ty, l, r) = &**inner else {
                return Err("its update is not `i = i op k`".into());
            };
            let same_bits = ty.is_integer() && ty.bits() == vty.bits();
            let narrowed = ty.is_integer() && vty.is_integer() && ty.bits() > vty.bits();
            if !(same_bits || narrowed) || !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
                return Err("its update converts the variable".into());
            }
            let widened = |e: &Expr| match e {
                Expr::Cast(t, v) => t == ty && plain(v),
                e => plain(e),
            };
            let (op, k) = direct(*op, l, r, &widened)
                .ok_or_else(|| "its update is not `i = i op k`".to_string())?;
            Ok((op, Expr::Cast(vty, Box::new(k)), narrowed))
        }
        _ => Err("its update is not `i = i op k` in the variable's type".into()),
    }
}
