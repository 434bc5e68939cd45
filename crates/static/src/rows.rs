//! The row-major index lemma. An index `a * w + b` with `0 <= b < w`
//! names one row `a` and one column `b` when the arithmetic is exact: two
//! such indices are equal only when their rows and columns are. Solvers
//! do not find this for 32-bit multiplications in bit-vector logic
//! (`out[y * width + x]` under `x < width` runs for minutes), so each race
//! query states it for the two accesses' indices as a valid implication:
//! its premises (the columns in range, no overflow or wrap-around) are
//! part of it, so asserting it changes no answer, only how fast the
//! solver finds one.
//!
//! A sum whose products share a factor, `x + w * y + i * w` (the index of
//! a tile loop over rows, `index + i * width` with `index = x + width *
//! y`), is the row `y + i` of width `w` at column `x`: a *factored* row;
//! so is a longer sum with one product, `y + h * x + i` (row `x`, column
//! `y + i`). The shared factor may sit deep in a product: `w * 16 * by +
//! w * ty + 16 * bx + tx` (the store of the classic tiled matrix product)
//! is the row `16 * by + ty` at column `16 * bx + tx`. The sum may widen
//! narrower sums and products: a pointer offset by its row and stepped
//! down the column, `d += y * pitch + x; d[i * 8 * pitch]`, indexes with
//! `(i64)(y * pitch + x) + (i64)(i * 8 * pitch)`, the row `y + i * 8` of
//! width `pitch`; each operation is then exact at its own type.
//! Its lemma compares the indices themselves and takes as premises that
//! every operation of the sum is exact (the encoder's own no-overflow
//! facts, in C's default) and that the column, summed in twice the width
//! (where it cannot wrap), is in `0..w`: then the integer index is
//! `w * (y + i) + x` and division by `w` is unique.
//!
//! Factors may also be shared through an equality the check assumes
//! (*aliases*, `Constants::aliases`: a launch relation's `width ==
//! height` for transpose's `x + y * width + i * height`, the row `y + i`
//! of width `width`). The lemma then takes the equality as one more
//! premise, so it stays valid on its own, whatever the check assumes.

use crate::encode::Encoder;
use crate::{EncodeError, Sym};
use warpsafe_ir::{BinOp, ScalarTy};
use warpsafe_smt::{term, Term};

/// The most decompositions taken from one index.
const MAX_ROWS: usize = 8;

/// One way to read an index as `a * w + b`, encoded, with the premises
/// of its lemma.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    a: Term,
    w: Term,
    b: Term,
    ty: ScalarTy,
    /// The index the decomposition reads: `a * w + b`, or for a factored
    /// row the index itself.
    value: Term,
    /// That `value` is computed exactly (no overflow or wrap-around).
    exact: Term,
    /// That the column is in `0..w` (for a factored row, summed in twice
    /// the width, where the sum cannot wrap).
    in_row: Term,
}

/// `0 <= b < w` (`b < w` unsigned) on `bits`-bit terms.
fn below(b: Term, w: Term, signed: bool, bits: u32) -> Term {
    if signed {
        term::and([term::bvsge(b.clone(), term::bv(0, bits)), term::bvslt(b, w)])
    } else {
        term::bvult(b, w)
    }
}

impl Row {
    /// The row `a * w + b` read straight off the index.
    fn split(a: Term, w: Term, b: Term, ty: ScalarTy) -> Row {
        let bits = ty.bits();
        let signed = ty.is_signed();
        let exact = if bits > 32 {
            // Row, width and column within half the width: exact,
            // without a double-width multiplier. All three in
            // `0..2^(bits/2)` (widened unsigned values): `a * w + b <
            // 2^bits` cannot wrap.
            let half = term::bv(1u128 << (bits / 2), bits);
            let unsigned_half =
                term::and([&a, &w, &b].map(|t| term::bvult(t.clone(), half.clone())));
            if signed {
                // Or all three in the signed half range. Equal widths keep
                // a row of each kind apart: a negative row of a width
                // below 2^(bits/2-1) reads as at least `2^bits -
                // 2^(bits-2)`, more than an unsigned one reaches.
                let lo = term::bv(
                    (u128::MAX << (bits / 2 - 1)) & (u128::MAX >> (128 - bits)),
                    bits,
                );
                let hi = term::bv(1u128 << (bits / 2 - 1), bits);
                let signed_half = term::and([&a, &w, &b].map(|t| {
                    term::and([
                        term::bvsge(t.clone(), lo.clone()),
                        term::bvslt(t.clone(), hi.clone()),
                    ])
                }));
                term::or([signed_half, unsigned_half])
            } else {
                unsigned_half
            }
        } else {
            let product = term::bvmul(a.clone(), w.clone());
            term::and([
                crate::encode::exact(BinOp::Mul, ty, &a, &w),
                crate::encode::exact(BinOp::Add, ty, &product, &b),
            ])
        };
        Row {
            value: term::bvadd(term::bvmul(a.clone(), w.clone()), b.clone()),
            in_row: below(b.clone(), w.clone(), signed, bits),
            exact,
            a,
            w,
            b,
            ty,
        }
    }
}

/// A sum of products that share the factor `w`, plus the other summands:
/// `Σ c_j * w + Σ b_k`, with the sum's additions and the products. Each
/// coefficient `c_j` is a product of factors (none: 1). The sum may
/// widen narrower sums (`(i64)(y * pitch + x) + (i64)(16 * i)`, a pointer
/// offset by a row and stepped in a loop): each operation is exact at its
/// own type, and the terms of the lemma are taken at the widest, `ty`.
struct Factored<'s> {
    sum: &'s Sym,
    w: &'s Sym,
    coefficients: Vec<Vec<&'s Sym>>,
    rest: Vec<&'s Sym>,
    /// The sum's additions and the grouped products.
    ops: Vec<Op<'s>>,
    /// The aliases the grouping used: factors equal to `w` only by them.
    premises: Vec<(&'s Sym, &'s Sym)>,
    ty: ScalarTy,
}

/// Pairs of uniform values of one type that the check assumes equal.
pub(crate) type Aliases = [(Sym, Sym)];

/// Whether `f` is the width `w`: the same value, or equal by an alias
/// (then the pair to state as a premise).
fn same_width<'s>(
    f: &'s Sym,
    w: &'s Sym,
    aliases: &'s Aliases,
) -> Option<Option<(&'s Sym, &'s Sym)>> {
    if f == w {
        return Some(None);
    }
    aliases
        .iter()
        .find(|(a, b)| (a == f && b == w) || (a == w && b == f))
        .map(|(a, b)| Some((a, b)))
}

/// An operation of an index sum at its own type, `(op, ty, l, r)`.
type Op<'s> = (BinOp, ScalarTy, &'s Sym, &'s Sym);

/// The operands of the tree of `op`s of type `ty` rooted at `s`, left to
/// right, and its operations: the summands of a sum, the multiplicands of
/// a product (`(w * 16) * y`: `w`, `16`, `y`). A root of another kind is
/// its own only operand.
fn flatten(s: &Sym, op: BinOp, ty: ScalarTy) -> (Vec<&Sym>, Vec<Op<'_>>) {
    let (mut operands, mut ops) = (Vec::new(), Vec::new());
    let mut todo = vec![s];
    while let Some(x) = todo.pop() {
        match x {
            Sym::Binary(o, t, l, r) if *o == op && *t == ty => {
                ops.push((op, ty, &**l, &**r));
                todo.push(r);
                todo.push(l);
            }
            x => operands.push(x),
        }
    }
    (operands, ops)
}

/// The summands of the integer sum rooted at `s`, left to right, through
/// casts that keep every value (`(i64)(a + b) + c` is `a`, `b`, `c`),
/// and its additions, each at its own type.
fn summands(s: &Sym) -> (Vec<&Sym>, Vec<Op<'_>>) {
    let (mut operands, mut ops) = (Vec::new(), Vec::new());
    let mut todo = vec![s];
    while let Some(x) = todo.pop() {
        match x {
            Sym::Binary(BinOp::Add, t, l, r) if t.is_integer() => {
                ops.push((BinOp::Add, *t, &**l, &**r));
                todo.push(r);
                todo.push(l);
            }
            Sym::Cast(to, inner)
                if widens(inner.ty(), *to) && matches!(&**inner, Sym::Binary(BinOp::Add, ..)) =>
            {
                todo.push(inner)
            }
            x => operands.push(x),
        }
    }
    (operands, ops)
}

/// The multiplicands of the product tree `s` of type `ty` and its
/// multiplications ([`flatten`]); `None` when `s` is no product.
fn multiplicands(s: &Sym, ty: ScalarTy) -> Option<(Vec<&Sym>, Vec<Op<'_>>)> {
    matches!(s, Sym::Binary(BinOp::Mul, t, _, _) if *t == ty).then(|| flatten(s, BinOp::Mul, ty))
}

/// `s` without the casts around it that keep every value.
fn unwiden(mut s: &Sym) -> &Sym {
    while let Sym::Cast(to, inner) = s {
        if !widens(inner.ty(), *to) {
            break;
        }
        s = inner;
    }
    s
}

/// The factored rows of `index`: its top-level sum (through widening
/// casts) grouped by each factor of its products, where `split` does not
/// already read it so (two products share the factor, or the sum has more
/// than two summands: `y + h * x + i` is the row `x` at column `y + i`).
/// A factor may sit deep in a product: `w * 16 * by + w * ty + 16 * bx +
/// tx` is the row `16 * by + ty` of width `w` at column `16 * bx + tx`.
fn factored<'s>(index: &'s Sym, aliases: &'s Aliases) -> Vec<Factored<'s>> {
    let sum = unwiden(index);
    let Sym::Binary(BinOp::Add, ty, _, _) = sum else {
        return Vec::new();
    };
    let ty = *ty;
    if !ty.is_integer() || ty.bits() > 64 {
        return Vec::new();
    }
    let (summands, adds) = summands(sum);
    // A product may be widened too (`(i64)(8 * i * pitch)`).
    fn product(s: &Sym) -> Option<(ScalarTy, &Sym, &Sym)> {
        match unwiden(s) {
            Sym::Binary(BinOp::Mul, t, p, q) if t.is_integer() => Some((*t, &**p, &**q)),
            _ => None,
        }
    }
    // The widths to try: each product's two operands, then the factors
    // deeper in its tree.
    let mut widths: Vec<&Sym> = Vec::new();
    for s in &summands {
        if let Some((_, p, q)) = product(s) {
            widths.extend([p, q]);
        }
    }
    for s in &summands {
        let s = unwiden(s);
        if let Some((factors, _)) = multiplicands(s, s.ty()) {
            widths.extend(factors);
        }
    }
    let mut out: Vec<Factored> = Vec::new();
    let mut tried: Vec<&Sym> = Vec::new();
    for w in widths {
        if tried.contains(&w) || !uniform(w) {
            continue;
        }
        tried.push(w);
        let mut coefficients = Vec::new();
        let mut rest = Vec::new();
        let mut ops = adds.clone();
        let mut premises = Vec::new();
        for s in &summands {
            if let Some((t, p, q)) = product(s) {
                let (pw, qw) = (same_width(p, w, aliases), same_width(q, w, aliases));
                if let Some(premise) = pw.or(qw) {
                    coefficients.push(vec![if pw.is_some() { q } else { p }]);
                    ops.push((BinOp::Mul, t, p, q));
                    premises.extend(premise);
                    continue;
                }
            }
            let m = unwiden(s);
            let factors = multiplicands(m, m.ty());
            let at = factors.as_ref().and_then(|(factors, _)| {
                factors
                    .iter()
                    .enumerate()
                    .find_map(|(i, f)| same_width(f, w, aliases).map(|p| (i, p)))
            });
            match (factors, at) {
                (Some((mut factors, muls)), Some((at, premise))) => {
                    factors.remove(at);
                    coefficients.push(factors);
                    ops.extend(muls);
                    premises.extend(premise);
                }
                _ => rest.push(*s),
            }
        }
        // One product and one other summand is `split`'s `a * w + b`.
        if coefficients.len() >= 2 || (!coefficients.is_empty() && summands.len() >= 3) {
            out.push(Factored {
                sum,
                w,
                coefficients,
                rest,
                ops,
                premises,
                ty,
            });
        }
        if out.len() >= MAX_ROWS {
            break;
        }
    }
    out
}

/// Every `a * w + b` (either operand of the product as `w`) in `index`,
/// looking through widening casts and into `a` (`(z * h + y) * w + x`),
/// in a fixed order so that two indices of one shape pair up.
fn split(index: &Sym) -> Vec<(&Sym, &Sym, &Sym, ScalarTy)> {
    let mut out = Vec::new();
    let mut todo = vec![index];
    while let Some(s) = todo.pop() {
        if out.len() >= MAX_ROWS {
            break;
        }
        match s {
            Sym::Cast(to, inner) if widens(inner.ty(), *to) => todo.push(inner),
            Sym::Binary(BinOp::Add, ty, l, r) if ty.is_integer() => {
                for (m, b) in [(l, r), (r, l)] {
                    if let Sym::Binary(BinOp::Mul, mty, p, q) = &**m {
                        if mty == ty {
                            out.push((&**p, &**q, &**b, *ty));
                            out.push((&**q, &**p, &**b, *ty));
                            todo.push(p);
                            todo.push(q);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out.truncate(MAX_ROWS);
    out
}

/// Whether `s` is the same for every thread and iteration (parameters,
/// launch dimensions, constants): what a row width is. Other factors
/// (`y * h` read with `y` as the width) only give lemmas the solver cannot
/// use and slows down on.
fn uniform(s: &Sym) -> bool {
    use warpsafe_ir::Builtin;
    let mut uniform = true;
    s.walk(&mut |x| {
        uniform &= !matches!(
            x,
            Sym::Builtin(Builtin::ThreadIdx(_) | Builtin::BlockIdx(_))
                | Sym::LoopVar { .. }
                | Sym::Unknown(_)
        )
    });
    uniform
}

/// Whether converting `from` to `to` keeps every value.
fn widens(from: ScalarTy, to: ScalarTy) -> bool {
    from.is_integer()
        && to.is_integer()
        && match (from.is_signed(), to.is_signed()) {
            (true, true) | (false, false) => to.bits() >= from.bits(),
            (false, true) => to.bits() > from.bits(),
            (true, false) => false,
        }
}

/// The decompositions of `index`, encoded by `e` (the encoder that
/// encoded the index, so the terms are the index's own), also through
/// `aliases`.
pub(crate) fn rows(
    e: &mut Encoder,
    index: &Sym,
    aliases: &Aliases,
) -> Result<Vec<Row>, EncodeError> {
    let mut rows = split(index)
        .into_iter()
        .map(|(a, w, b, ty)| {
            Ok(Row::split(
                e.encode_as(a, ty)?,
                e.encode_as(w, ty)?,
                e.encode_as(b, ty)?,
                ty,
            ))
        })
        .collect::<Result<Vec<Row>, EncodeError>>()?;
    // The row and column sums are the lemma's own terms, not the
    // program's: encoding them must not add facts about the program.
    let (facts, wraps) = (e.facts.len(), e.wrap_facts.len());
    for f in factored(index, aliases) {
        let ty = f.ty;
        let mut enc = |s: &Sym| e.encode_as(s, ty);
        let add = |terms: Vec<Term>| {
            terms
                .into_iter()
                .reduce(term::bvadd)
                .unwrap_or_else(|| term::bv(0, ty.bits()))
        };
        let mut coefficients = Vec::new();
        for factors in &f.coefficients {
            let factors = factors
                .iter()
                .map(|c| enc(c))
                .collect::<Result<Vec<_>, _>>()?;
            coefficients.push(
                factors
                    .into_iter()
                    .reduce(term::bvmul)
                    .unwrap_or_else(|| term::bv(1, ty.bits())),
            );
        }
        let rest = f
            .rest
            .iter()
            .map(|c| enc(c))
            .collect::<Result<Vec<_>, _>>()?;
        let mut exact = Vec::new();
        for (op, t, l, r) in &f.ops {
            let (l, r) = (e.encode_as(l, *t)?, e.encode_as(r, *t)?);
            exact.push(crate::encode::exact(*op, *t, &l, &r));
        }
        for (a, b) in &f.premises {
            let t = a.ty();
            exact.push(term::eq(e.encode_as(a, t)?, e.encode_as(b, t)?));
        }
        let mut enc = |s: &Sym| e.encode_as(s, ty);
        let w = enc(f.w)?;
        // The column summed where it cannot wrap: its value as an integer.
        let bits = ty.bits();
        let wide = |t: &Term| {
            if ty.is_signed() {
                term::sign_extend(bits, t.clone())
            } else {
                term::zero_extend(bits, t.clone())
            }
        };
        let column = rest
            .iter()
            .map(wide)
            .reduce(term::bvadd)
            .unwrap_or_else(|| term::bv(0, 2 * bits));
        rows.push(Row {
            in_row: below(column, wide(&w), ty.is_signed(), 2 * bits),
            value: enc(f.sum)?,
            exact: term::and(exact),
            a: add(coefficients),
            w,
            b: add(rest),
            ty,
        });
    }
    e.facts.truncate(facts);
    e.wrap_facts.truncate(wraps);
    Ok(rows)
}

/// The lemma for two decompositions of one type: equal exact indices
/// with columns in `0..w` have equal rows and columns.
pub(crate) fn lemmas(first: &[Row], second: &[Row]) -> Vec<Term> {
    first
        .iter()
        .zip(second)
        .filter(|(r1, r2)| r1.ty == r2.ty)
        .map(|(r1, r2)| {
            term::implies(
                term::and([
                    term::eq(r1.value.clone(), r2.value.clone()),
                    term::eq(r1.w.clone(), r2.w.clone()),
                    r1.in_row.clone(),
                    r2.in_row.clone(),
                    r1.exact.clone(),
                    r2.exact.clone(),
                ]),
                term::and([
                    term::eq(r1.a.clone(), r2.a.clone()),
                    term::eq(r1.b.clone(), r2.b.clone()),
                ]),
            )
        })
        .collect()
}
