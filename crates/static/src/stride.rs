//! The values a counting loop's variable takes, beyond its range (seed 002
//! §5, loop normalisation).
//!
//! Faial runs `for (i = lb; i < ub; i += s) S` as the unit-stride loop
//! `for (i = lb; i < ub; i++) if ((i - lb) % s == 0) S`, and a loop over
//! powers as one guarded by "`i` is a power of `s`". Here the same facts
//! constrain a loop variable's constant `v` in every query (race pairs,
//! batches, aligning's well-formedness queries, assertions), next to
//! `lo <= v < hi`:
//!
//! - `+ k`: `(v - lo) urem k = 0`; `- k`: `(hi - 1 - v) urem k = 0`, each
//!   only when `k > 0` in the variable's type (any symbolic `k`: grid-stride
//!   loops keep `blockDim.x * gridDim.x`);
//! - `* c`, `<< c` with a constant `c`: `v = lo * c^j` for some `j >= 0`,
//!   compared in double width so that no product wraps;
//! - `/ c`, `>> c` with a constant `c`: `v = (hi - 1) / c^j` for some
//!   `j >= 0`, or `0`;
//! - geometric steps by a symbolic amount are not modelled ([`modelled`]
//!   is false): the range alone over-approximates them, and races through
//!   such loops stay *possible*.
//!
//! [`last`] pins the last iteration of a loop: a value the loop takes whose
//! successor leaves the range (computed in double width, so without wrap).
//!
//! Invariants (soundness): the constraints hold for every value the loop
//! takes whenever the loop's validity condition holds (`ForLoop` is only
//! emitted under it, so every query that mentions a loop's constant also
//! asserts the guards of an access inside the loop, which include it); the
//! positivity each constraint relies on (`k > 0`, `lo > 0`, `hi - 1 >= 0`)
//! is its own premise, so it never restricts a loop that is not run.
//! Exactness: with the validity condition, every value in range that
//! satisfies the constraint is taken, so a witness through a modelled loop
//! is real (no "may skip the witness value" reason).

use crate::encode::{lit, resize, EncodeError, Encoder};
use std::collections::HashMap;

use crate::protocol::{Condition, ForLoop, LoopRange, Step};
use crate::sym::{type_range, Sym};
use warpsafe_ir::{BinOp, Builtin, Dim, Kernel, ScalarTy, VarId, VarKind};
use warpsafe_smt::{term, Term};

/// A counting loop as the stride constraints need it.
#[derive(Clone, Copy)]
pub(crate) struct Counting<'a> {
    pub ty: ScalarTy,
    pub lo: &'a Sym,
    pub hi: &'a Sym,
    pub step: &'a Step,
}

impl<'a> From<&'a ForLoop> for Counting<'a> {
    fn from(l: &'a ForLoop) -> Counting<'a> {
        Counting {
            ty: l.ty,
            lo: &l.lo,
            hi: &l.hi,
            step: &l.step,
        }
    }
}

impl<'a> From<&'a LoopRange> for Counting<'a> {
    fn from(l: &'a LoopRange) -> Counting<'a> {
        Counting {
            ty: l.ty,
            lo: &l.lo,
            hi: &l.hi,
            step: &l.step,
        }
    }
}

/// What is constant in one check of a kernel: the launch dimensions given,
/// the parameter values given (`--param`), and the parameters that an
/// unconditional precondition equates to a constant (`__requires(n ==
/// blockDim.x)` with a known `blockDim.x`). A stride that folds to a
/// constant under them is *ground*: its constraint is cheap for the solver
/// (`urem` by a constant) and goes into every query; a symbolic one
/// (`blockDim.x * gridDim.x` with unknown dimensions) makes a nonlinear
/// constraint that the solver often cannot decide, so the race check only
/// uses it to refine a race found without it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Constants {
    block: Option<[u64; 3]>,
    grid: Option<[u64; 3]>,
    params: HashMap<VarId, i128>,
    /// Parameters an unconditional precondition equates (`width ==
    /// height` from transpose's launch), for the row lemma (`rows.rs`).
    aliases: Vec<(Sym, Sym)>,
}

impl Constants {
    pub(crate) fn new(
        kernel: &Kernel,
        param_values: &[(String, i128)],
        preconditions: &[Condition],
    ) -> Constants {
        let mut c = Constants {
            block: kernel.launch.block,
            grid: kernel.launch.grid,
            params: HashMap::new(),
            aliases: Vec::new(),
        };
        for v in &kernel.vars {
            if v.kind != VarKind::Param {
                continue;
            }
            if let Some((_, value)) = param_values.iter().find(|(n, _)| *n == v.name) {
                c.params.insert(v.id, *value);
            }
        }
        // `p == e` with `e` constant: one pass per precondition is enough
        // for chains written in order. Its equalities of two parameters
        // are aliases.
        for p in preconditions {
            if !p.guard.is_true() || p.in_loop {
                continue;
            }
            if let Sym::Binary(BinOp::Eq, _, a, b) = &p.cond {
                for (x, y) in [(a, b), (b, a)] {
                    if let (Sym::Param { var, .. }, Some(v)) = (&**x, c.fold(y).as_int()) {
                        c.params.entry(*var).or_insert(v);
                    }
                }
            }
            c.aliases.extend(equalities(&p.cond));
        }
        c
    }

    /// Parameters of one type an unconditional precondition equates.
    pub(crate) fn aliases(&self) -> &[(Sym, Sym)] {
        &self.aliases
    }

    /// `s` with the known constants substituted and folded.
    fn fold(&self, s: &Sym) -> Sym {
        s.map(&mut |e| match e {
            Sym::Builtin(Builtin::BlockDim(d)) => self
                .block
                .map(|b| Sym::int(i128::from(b[dim(*d)]), ScalarTy::U32)),
            Sym::Builtin(Builtin::GridDim(d)) => self
                .grid
                .map(|g| Sym::int(i128::from(g[dim(*d)]), ScalarTy::U32)),
            Sym::Param { var, ty } => self.params.get(var).map(|v| Sym::int(*v, *ty)),
            _ => None,
        })
    }

    /// Whether the loop's step constraint is cheap: modelled, with an amount
    /// that is constant in this check.
    pub(crate) fn ground(&self, step: &Step) -> bool {
        modelled(step) && self.fold(step.amount()).as_int().is_some()
    }
}

/// The top-level conjuncts `a == b` of `cond` between two parameters (or
/// host values), each perhaps converted, of one type: `width == height`.
/// (Equalities with launch dimensions or computed values are left out:
/// they are in most launch relations, and lemmas through them only slow
/// the solver down where no index multiplies by both sides.)
fn equalities(cond: &Sym) -> Vec<(Sym, Sym)> {
    let mut out = Vec::new();
    let mut todo = vec![cond];
    while let Some(c) = todo.pop() {
        match c {
            Sym::Binary(BinOp::And, _, a, b) => todo.extend([&**a, &**b]),
            Sym::Binary(BinOp::Eq, _, a, b)
                if a.ty() == b.ty() && a.ty().is_integer() && param(a) && param(b) =>
            {
                out.push(((**a).clone(), (**b).clone()));
            }
            _ => {}
        }
    }
    out
}

/// Whether `s` is a parameter, perhaps converted.
fn param(mut s: &Sym) -> bool {
    while let Sym::Cast(_, inner) = s {
        s = inner;
    }
    matches!(s, Sym::Param { .. })
}

fn dim(d: Dim) -> usize {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}

/// Whether [`reachable`] models the step exactly: every additive step, and
/// geometric steps by a constant.
pub(crate) fn modelled(step: &Step) -> bool {
    match step {
        Step::Add(_) | Step::Sub(_) => true,
        Step::Mul(k) | Step::Shl(k) | Step::Div(k) | Step::Shr(k) => k.as_int().is_some(),
    }
}

/// The step's amount as a constant of the loop variable's type.
fn constant(l: Counting<'_>) -> Option<i128> {
    Sym::cast(l.ty, l.step.amount().clone()).as_int()
}

/// The double width the constraints compare in: products of two values of
/// the type, and sums of those, never wrap.
fn wide(ty: ScalarTy) -> u32 {
    2 * ty.bits() + 2
}

/// `t` of type `ty` in double width, keeping its value.
fn widen(t: Term, ty: ScalarTy) -> Term {
    resize(t, ty, wide(ty))
}

/// A non-negative constant in double width.
fn wide_lit(v: i128, ty: ScalarTy) -> Term {
    term::bv(v as u128, wide(ty))
}

/// `a > b` (`gt`) or `a >= b` in type `ty`.
fn greater(ty: ScalarTy, a: Term, b: Term, strict: bool) -> Term {
    match (ty.is_signed(), strict) {
        (true, true) => term::bvsgt(a, b),
        (true, false) => term::bvsge(a, b),
        (false, true) => term::bvugt(a, b),
        (false, false) => term::bvuge(a, b),
    }
}

/// `c^0, c^1, ...` while at most the type's maximum.
fn powers(c: i128, ty: ScalarTy) -> Vec<i128> {
    let max = type_range(ty).1;
    let mut out = vec![1];
    if c < 2 {
        return out;
    }
    let mut p: i128 = c;
    while p <= max {
        out.push(p);
        match p.checked_mul(c) {
            Some(n) => p = n,
            None => break,
        }
    }
    out
}

/// The constraint that `v` is a value the loop takes, given that it is in
/// range; `None` when the step is not modelled (see the module doc).
pub(crate) fn reachable(
    e: &mut Encoder<'_>,
    l: Counting<'_>,
    v: &Term,
) -> Result<Option<Term>, EncodeError> {
    if !modelled(l.step) || l.step.is_unit() {
        return Ok(None);
    }
    let ty = l.ty;
    let zero = lit(0, ty);
    let one = lit(1, ty);
    let t = match l.step {
        Step::Add(k) | Step::Sub(k) => {
            let k = e.encode_as(&Sym::cast(ty, k.clone()), ty)?;
            let distance = if matches!(l.step, Step::Add(_)) {
                let lo = e.encode_as(l.lo, ty)?;
                term::bvsub(v.clone(), lo)
            } else {
                let hi = e.encode_as(l.hi, ty)?;
                term::bvsub(term::bvsub(hi, one), v.clone())
            };
            term::implies(
                greater(ty, k.clone(), zero.clone(), true),
                term::eq(term::bvurem(distance, k), zero),
            )
        }
        Step::Mul(_) | Step::Shl(_) => {
            let c = constant(l).expect("invariant: modelled geometric steps are constant");
            let factors: Vec<i128> = match l.step {
                Step::Mul(_) => powers(c, ty),
                _ if c > 0 && c < i128::from(ty.bits()) => (0..ty.bits() as i128)
                    .step_by(c as usize)
                    .map(|s| 1i128 << s)
                    .collect(),
                // A shift by 0 (or out of range) is never valid.
                _ => vec![1],
            };
            let lo = e.encode_as(l.lo, ty)?;
            let wlo = widen(lo.clone(), ty);
            let wv = widen(v.clone(), ty);
            let values = factors
                .iter()
                .map(|&f| term::eq(wv.clone(), term::bvmul(wlo.clone(), wide_lit(f, ty))));
            term::implies(greater(ty, lo, zero, true), term::or(values))
        }
        Step::Div(_) | Step::Shr(_) => {
            let c = constant(l).expect("invariant: modelled geometric steps are constant");
            let hi = e.encode_as(l.hi, ty)?;
            let first = term::bvsub(hi, one);
            let mut values = vec![term::eq(v.clone(), zero.clone())];
            match l.step {
                Step::Div(_) => {
                    for p in powers(c, ty) {
                        let p = lit(p, ty);
                        values.push(term::eq(v.clone(), term::bvudiv(first.clone(), p)));
                    }
                }
                _ => {
                    let shifts: Vec<i128> = if c > 0 && c < i128::from(ty.bits()) {
                        (0..i128::from(ty.bits())).step_by(c as usize).collect()
                    } else {
                        vec![0]
                    };
                    for s in shifts {
                        let s = lit(s, ty);
                        values.push(term::eq(v.clone(), term::bvlshr(first.clone(), s)));
                    }
                }
            }
            term::implies(greater(ty, first, zero, false), term::or(values))
        }
    };
    Ok(Some(t))
}

/// A counting loop `v = lo, lo + k, lo + 2k, ...` as encoded for one
/// thread: what [`congruence`] needs.
#[derive(Clone, Debug)]
pub(crate) struct Progression {
    v: Term,
    lo: Term,
    k: Term,
    ty: ScalarTy,
}

/// The progression of an increasing loop with an additive step (`None`
/// for other steps).
pub(crate) fn progression(
    e: &mut Encoder<'_>,
    l: Counting<'_>,
    v: &Term,
) -> Result<Option<Progression>, EncodeError> {
    let Step::Add(k) = l.step else {
        return Ok(None);
    };
    let ty = l.ty;
    Ok(Some(Progression {
        v: v.clone(),
        lo: e.encode_as(l.lo, ty)?,
        k: e.encode_as(&Sym::cast(ty, k.clone()), ty)?,
        ty,
    }))
}

/// The grid-stride lemma, for two threads' progressions with one step:
/// values `v1 == v2` with `v = lo + j * k` and starts `0 <= lo < k` have
/// equal starts (`v1 - lo1` and `v2 - lo2` are multiples of `k`, so `lo1`
/// and `lo2` are congruent modulo `k`). A valid implication, premises
/// included; it spares the solver the modular reasoning that
/// `for (i = tid; i < n; i += gridDim.x * blockDim.x)` needs.
pub(crate) fn congruence(first: &[Progression], second: &[Progression]) -> Vec<Term> {
    let mut out = Vec::new();
    for p in first {
        for q in second.iter().filter(|q| q.ty == p.ty) {
            let ty = p.ty;
            let zero = lit(0, ty);
            let le = |a: &Term, b: &Term| greater(ty, b.clone(), a.clone(), false);
            let lt = |a: &Term, b: &Term| greater(ty, b.clone(), a.clone(), true);
            let on = |r: &Progression| {
                term::and([
                    le(&zero, &r.lo),
                    lt(&r.lo, &p.k),
                    le(&r.lo, &r.v),
                    term::eq(
                        term::bvurem(term::bvsub(r.v.clone(), r.lo.clone()), r.k.clone()),
                        zero.clone(),
                    ),
                ])
            };
            out.push(term::implies(
                term::and([
                    term::eq(p.v.clone(), q.v.clone()),
                    term::eq(p.k.clone(), q.k.clone()),
                    lt(&zero, &p.k),
                    on(p),
                    on(q),
                ]),
                term::eq(p.lo.clone(), q.lo.clone()),
            ));
        }
    }
    out
}

/// The constraint that `v`, a value the loop takes, is its last one: the
/// step from it leaves the range. `None` when the step is not modelled.
pub(crate) fn last(
    e: &mut Encoder<'_>,
    l: Counting<'_>,
    v: &Term,
) -> Result<Option<Term>, EncodeError> {
    if !modelled(l.step) {
        return Ok(None);
    }
    let ty = l.ty;
    let k = e.encode_as(&Sym::cast(ty, l.step.amount().clone()), ty)?;
    let wv = widen(v.clone(), ty);
    let wk = widen(k.clone(), ty);
    let positive = greater(ty, k.clone(), lit(0, ty), true);
    let t = match l.step {
        Step::Add(_) | Step::Mul(_) | Step::Shl(_) => {
            let hi = widen(e.encode_as(l.hi, ty)?, ty);
            let next = match l.step {
                Step::Add(_) => term::bvadd(wv, wk),
                Step::Mul(_) => term::bvmul(wv, wk),
                _ => term::bvshl(wv, wk),
            };
            term::bvsge(next, hi)
        }
        Step::Sub(_) => {
            let lo = widen(e.encode_as(l.lo, ty)?, ty);
            term::bvslt(term::bvsub(wv, wk), lo)
        }
        Step::Div(_) | Step::Shr(_) => {
            let lo = e.encode_as(l.lo, ty)?;
            let next = match l.step {
                Step::Div(_) => term::bvudiv(v.clone(), k),
                _ => term::bvlshr(v.clone(), k),
            };
            greater(ty, lo, next, true)
        }
    };
    Ok(Some(term::implies(positive, t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_stop_at_the_type_maximum() {
        assert_eq!(powers(2, ScalarTy::U8), vec![1, 2, 4, 8, 16, 32, 64, 128]);
        assert_eq!(powers(3, ScalarTy::I8), vec![1, 3, 9, 27, 81]);
        assert_eq!(powers(1, ScalarTy::U32), vec![1]);
    }

    #[test]
    fn symbolic_geometric_steps_are_not_modelled() {
        let n = Sym::Param {
            var: warpsafe_ir::VarId(0),
            ty: ScalarTy::U32,
        };
        assert!(modelled(&Step::Add(n.clone())));
        assert!(!modelled(&Step::Mul(n)));
        assert!(modelled(&Step::Shr(Sym::int(1, ScalarTy::U32))));
    }

    #[test]
    fn only_equalities_of_two_parameters_are_aliases() {
        let p = |v: u32| Sym::Param {
            var: warpsafe_ir::VarId(v),
            ty: ScalarTy::I32,
        };
        let eq = |a: Sym, b: Sym| Sym::Binary(BinOp::Eq, ScalarTy::I32, Box::new(a), Box::new(b));
        let and =
            |a: Sym, b: Sym| Sym::Binary(BinOp::And, ScalarTy::Bool, Box::new(a), Box::new(b));
        let grid = Sym::Cast(
            ScalarTy::I32,
            Box::new(Sym::Builtin(Builtin::GridDim(Dim::X))),
        );
        // transpose's `width == height && gridDim.x == width / 32`, with a
        // converted parameter and a constant.
        let cond = and(
            and(eq(p(0), p(1)), eq(grid, p(0))),
            and(
                eq(p(2), Sym::Cast(ScalarTy::I32, Box::new(p(3)))),
                eq(p(4), Sym::int(7, ScalarTy::I32)),
            ),
        );
        let mut found = equalities(&cond);
        found.sort_by_key(|(a, _)| format!("{a:?}"));
        assert_eq!(
            found,
            vec![
                (p(0), p(1)),
                (p(2), Sym::Cast(ScalarTy::I32, Box::new(p(3))))
            ]
        );
        // Under a disjunction, nothing.
        let or = Sym::Binary(
            BinOp::Or,
            ScalarTy::Bool,
            Box::new(eq(p(0), p(1))),
            Box::new(eq(p(0), p(2))),
        );
        assert!(equalities(&or).is_empty());
    }
}
