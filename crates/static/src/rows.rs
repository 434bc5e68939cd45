//! The row-major index lemma. An index `a * w + b` with `0 <= b < w`
//! names one row `a` and one column `b` when the arithmetic is exact: two
//! such indices are equal only when their rows and columns are. Solvers
//! do not find this for 32-bit multiplications in bit-vector logic
//! (`out[y * width + x]` under `x < width` runs for minutes), so each race
//! query states it for the two accesses' indices as a valid implication:
//! its premises (the columns in range, no overflow or wrap-around) are
//! part of it, so asserting it changes no answer, only how fast the
//! solver finds one.

use crate::encode::Encoder;
use crate::{EncodeError, Sym};
use warpsafe_ir::{BinOp, ScalarTy};
use warpsafe_smt::{term, Term};

/// The most decompositions taken from one index.
const MAX_ROWS: usize = 8;

/// One way to read an index as `a * w + b`, encoded.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    a: Term,
    w: Term,
    b: Term,
    ty: ScalarTy,
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
/// encoded the index, so the terms are the index's own).
pub(crate) fn rows(e: &mut Encoder, index: &Sym) -> Result<Vec<Row>, EncodeError> {
    split(index)
        .into_iter()
        .map(|(a, w, b, ty)| {
            Ok(Row {
                a: e.encode_as(a, ty)?,
                w: e.encode_as(w, ty)?,
                b: e.encode_as(b, ty)?,
                ty,
            })
        })
        .collect()
}

/// The lemma for two decompositions of one type: equal exact indices
/// with columns in `0..w` have equal rows and columns.
pub(crate) fn lemmas(first: &[Row], second: &[Row]) -> Vec<Term> {
    first
        .iter()
        .zip(second)
        .filter(|(r1, r2)| r1.ty == r2.ty)
        .map(|(r1, r2)| {
            let bits = r1.ty.bits();
            let signed = r1.ty.is_signed();
            let in_row = |r: &Row| {
                let lt = if signed { term::bvslt } else { term::bvult };
                let below = lt(r.b.clone(), r.w.clone());
                if signed {
                    term::and([term::bvsge(r.b.clone(), term::bv(0, bits)), below])
                } else {
                    below
                }
            };
            let exact = |r: &Row| {
                if bits > 32 {
                    // Row, width and column within half the width: exact,
                    // without a double-width multiplier.
                    let (lo, hi) = if signed {
                        (
                            term::bv(
                                (u128::MAX << (bits / 2 - 1)) & (u128::MAX >> (128 - bits)),
                                bits,
                            ),
                            term::bv(1u128 << (bits / 2 - 1), bits),
                        )
                    } else {
                        (term::bv(0, bits), term::bv(1u128 << (bits / 2), bits))
                    };
                    let within = |t: &Term| {
                        if signed {
                            term::and([
                                term::bvsge(t.clone(), lo.clone()),
                                term::bvslt(t.clone(), hi.clone()),
                            ])
                        } else {
                            term::bvult(t.clone(), hi.clone())
                        }
                    };
                    return term::and([within(&r.a), within(&r.w), within(&r.b)]);
                }
                let product = term::bvmul(r.a.clone(), r.w.clone());
                term::and([
                    crate::encode::exact(BinOp::Mul, r.ty, &r.a, &r.w),
                    crate::encode::exact(BinOp::Add, r.ty, &product, &r.b),
                ])
            };
            let value = |r: &Row| term::bvadd(term::bvmul(r.a.clone(), r.w.clone()), r.b.clone());
            term::implies(
                term::and([
                    term::eq(value(r1), value(r2)),
                    term::eq(r1.w.clone(), r2.w.clone()),
                    in_row(r1),
                    in_row(r2),
                    exact(r1),
                    exact(r2),
                ]),
                term::and([
                    term::eq(r1.a.clone(), r2.a.clone()),
                    term::eq(r1.b.clone(), r2.b.clone()),
                ]),
            )
        })
        .collect()
}
