//! [`Sym`] to SMT-LIB2 bit-vector terms, for one thread.
//!
//! Every integer type is a bit-vector of its width, so C's wrap-around is
//! exact; `Bool` is SMT `Bool`. Signedness picks the operation: `<` is
//! `bvslt` or `bvult`, `/` is `bvsdiv` or `bvudiv` (both truncate towards
//! zero, as C does), `%` is `bvsrem`/`bvurem` (sign of the dividend, as C),
//! `>>` is `bvashr`/`bvlshr`. Where C is undefined, SMT-LIB's total
//! definitions apply: `x / 0` is all ones (unsigned) or `x < 0 ? 1 : -1`
//! (signed), `x % 0` is `x`, a shift by the width or more gives 0 (or the
//! sign fill for `bvashr`). A kernel that divides by zero has undefined
//! behaviour anyway; v0 picks SMT-LIB's value for it.
//!
//! Soundness: launch builtins and scalar parameters are shared constants
//! given by the caller; every [`Unknown`](crate::Unknown) leaf becomes a
//! fresh constant per encoder (one encoder per thread and access), and so
//! does every conversion from a float, so the encoding over-approximates
//! what the analysis does not know. Anything the encoder cannot express is
//! an [`EncodeError`], which the caller reports as UNKNOWN.

use std::collections::HashMap;

use crate::sym::{Sym, UnknownReason};
use warpsafe_ir::{BinOp, Builtin, Dim, LoopId, ScalarTy, UnOp, VarId};
use warpsafe_smt::{term, Sort, Term};

/// Why a symbolic value could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

/// The SMT sort of a non-float scalar type.
pub(crate) fn sort_of(ty: ScalarTy) -> Result<Sort, EncodeError> {
    if ty.is_float() {
        return Err(EncodeError(format!("a {ty} value cannot be encoded")));
    }
    Ok(if ty == ScalarTy::Bool {
        Sort::Bool
    } else {
        Sort::BitVec(ty.bits())
    })
}

/// A literal of type `ty`.
pub(crate) fn lit(v: i128, ty: ScalarTy) -> Term {
    if ty == ScalarTy::Bool {
        term::bool(v != 0)
    } else {
        term::bv(v as u128, ty.bits())
    }
}

/// Converts `t` of type `from` to type `to` as a C cast does.
pub(crate) fn convert(t: Term, from: ScalarTy, to: ScalarTy) -> Result<Term, EncodeError> {
    if from.is_float() || to.is_float() {
        return Err(EncodeError("a float conversion cannot be encoded".into()));
    }
    if from == to {
        return Ok(t);
    }
    if from == ScalarTy::Bool {
        return Ok(term::ite(t, lit(1, to), lit(0, to)));
    }
    if to == ScalarTy::Bool {
        return Ok(term::not(term::eq(t, lit(0, from))));
    }
    Ok(resize(t, from, to.bits()))
}

/// Sign- or zero-extends (by `from`'s signedness) or truncates an integer
/// term to `bits`.
pub(crate) fn resize(t: Term, from: ScalarTy, bits: u32) -> Term {
    let have = from.bits();
    if bits > have {
        if from.is_signed() {
            term::sign_extend(bits - have, t)
        } else {
            term::zero_extend(bits - have, t)
        }
    } else if bits < have {
        term::extract(bits - 1, 0, t)
    } else {
        t
    }
}

/// The shared constants every thread sees.
#[derive(Clone, Debug)]
pub(crate) struct Shared {
    pub block_dim: [Term; 3],
    pub grid_dim: [Term; 3],
    pub params: HashMap<VarId, Term>,
}

/// One thread's ids.
#[derive(Clone, Debug)]
pub(crate) struct ThreadVars {
    pub thread_idx: [Term; 3],
    pub block_idx: [Term; 3],
}

fn dim(d: Dim) -> usize {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}

/// Encodes the expressions of one thread at one access.
pub(crate) struct Encoder<'a> {
    shared: &'a Shared,
    thread: &'a ThreadVars,
    prefix: String,
    /// Constants of the enclosing `For` loops' variables.
    pub loop_vars: HashMap<LoopId, Term>,
    /// Fresh constants to declare before asserting anything encoded.
    pub decls: Vec<(String, Sort)>,
    /// What the fresh constants stand for (for the race's certainty).
    pub approximations: Vec<UnknownReason>,
    /// One constant per unknown leaf id: within one access of one thread,
    /// leaves with the same id denote the same value (see `sym`).
    unknowns: HashMap<u32, Term>,
}

impl<'a> Encoder<'a> {
    pub fn new(shared: &'a Shared, thread: &'a ThreadVars, prefix: &str) -> Encoder<'a> {
        Encoder {
            shared,
            thread,
            prefix: prefix.to_owned(),
            loop_vars: HashMap::new(),
            decls: Vec::new(),
            approximations: Vec::new(),
            unknowns: HashMap::new(),
        }
    }

    /// Declares (lazily, through `decls`) a fresh constant.
    pub fn fresh(&mut self, what: &str, sort: Sort) -> Term {
        let name = format!("{}_{}{}", self.prefix, what, self.decls.len());
        self.decls.push((name.clone(), sort));
        Term::atom(name)
    }

    /// `s` as a term of `ty` (casting as C does when `s` has another type).
    pub fn encode_as(&mut self, s: &Sym, ty: ScalarTy) -> Result<Term, EncodeError> {
        let t = self.encode(s)?;
        convert(t, s.ty(), ty)
    }

    pub fn encode(&mut self, s: &Sym) -> Result<Term, EncodeError> {
        Ok(match s {
            Sym::Int(v, ty) => lit(*v, *ty),
            Sym::Bool(b) => term::bool(*b),
            Sym::Builtin(b) => match b {
                Builtin::ThreadIdx(d) => self.thread.thread_idx[dim(*d)].clone(),
                Builtin::BlockIdx(d) => self.thread.block_idx[dim(*d)].clone(),
                Builtin::BlockDim(d) => self.shared.block_dim[dim(*d)].clone(),
                Builtin::GridDim(d) => self.shared.grid_dim[dim(*d)].clone(),
                Builtin::WarpSize => lit(32, ScalarTy::I32),
            },
            Sym::Param { var, ty } => {
                sort_of(*ty)?;
                self.shared
                    .params
                    .get(var)
                    .cloned()
                    .ok_or_else(|| EncodeError(format!("unknown parameter {var:?}")))?
            }
            Sym::LoopVar { loop_id, .. } => {
                self.loop_vars.get(loop_id).cloned().ok_or_else(|| {
                    EncodeError(format!("loop variable of {loop_id:?} out of scope"))
                })?
            }
            Sym::Unknown(u) => {
                if let Some(t) = self.unknowns.get(&u.id) {
                    return Ok(t.clone());
                }
                let sort = sort_of(u.ty)?;
                self.approximations.push(u.reason.clone());
                let t = self.fresh("u", sort);
                self.unknowns.insert(u.id, t.clone());
                t
            }
            Sym::Unary(op, ty, e) => match op {
                UnOp::Not => term::not(self.encode_as(e, ScalarTy::Bool)?),
                UnOp::Neg | UnOp::BitNot => {
                    let a = self.int_operand(e, *ty)?;
                    term::app(if *op == UnOp::Neg { "bvneg" } else { "bvnot" }, [a])
                }
            },
            Sym::Binary(op, ty, a, b) => self.binary(*op, *ty, a, b)?,
            Sym::Select(c, a, b) => {
                let ty = a.ty();
                let c = self.encode_as(c, ScalarTy::Bool)?;
                let a = self.encode_as(a, ty)?;
                let b = self.encode_as(b, ty)?;
                term::ite(c, a, b)
            }
            Sym::Min(ty, a, b) | Sym::Max(ty, a, b) => {
                let x = self.int_operand(a, *ty)?;
                let y = self.int_operand(b, *ty)?;
                let less = if ty.is_signed() {
                    term::bvslt(x.clone(), y.clone())
                } else {
                    term::bvult(x.clone(), y.clone())
                };
                if matches!(s, Sym::Min(..)) {
                    term::ite(less, x, y)
                } else {
                    term::ite(less, y, x)
                }
            }
            Sym::Cast(ty, e) => {
                if e.ty().is_float() {
                    // A float converted to an integer: any value.
                    let sort = sort_of(*ty)?;
                    self.approximations.push(UnknownReason::Float);
                    self.fresh("f", sort)
                } else {
                    self.encode_as(e, *ty)?
                }
            }
        })
    }

    fn int_operand(&mut self, e: &Sym, ty: ScalarTy) -> Result<Term, EncodeError> {
        if !ty.is_integer() {
            return Err(EncodeError(format!("integer operation on {ty}")));
        }
        self.encode_as(e, ty)
    }

    fn binary(&mut self, op: BinOp, ty: ScalarTy, a: &Sym, b: &Sym) -> Result<Term, EncodeError> {
        if ty.is_float() {
            return Err(EncodeError("a float operation cannot be encoded".into()));
        }
        if ty == ScalarTy::Bool {
            let x = self.encode_as(a, ScalarTy::Bool)?;
            let y = self.encode_as(b, ScalarTy::Bool)?;
            return Ok(match op {
                BinOp::And | BinOp::BitAnd => term::and([x, y]),
                BinOp::Or | BinOp::BitOr => term::or([x, y]),
                BinOp::Eq => term::eq(x, y),
                BinOp::Ne | BinOp::BitXor => term::not(term::eq(x, y)),
                _ => {
                    // Arithmetic on bools: in C both are promoted to int.
                    let x = convert(x, ScalarTy::Bool, ScalarTy::I32)?;
                    let y = convert(y, ScalarTy::Bool, ScalarTy::I32)?;
                    return self.int_binary(op, ScalarTy::I32, x, y);
                }
            });
        }
        if matches!(op, BinOp::And | BinOp::Or) {
            let x = self.encode_as(a, ScalarTy::Bool)?;
            let y = self.encode_as(b, ScalarTy::Bool)?;
            return Ok(if op == BinOp::And {
                term::and([x, y])
            } else {
                term::or([x, y])
            });
        }
        let x = self.int_operand(a, ty)?;
        let y = self.int_operand(b, ty)?;
        self.int_binary(op, ty, x, y)
    }

    fn int_binary(
        &mut self,
        op: BinOp,
        ty: ScalarTy,
        x: Term,
        y: Term,
    ) -> Result<Term, EncodeError> {
        let s = ty.is_signed();
        Ok(match op {
            BinOp::Add => term::bvadd(x, y),
            BinOp::Sub => term::bvsub(x, y),
            BinOp::Mul => term::bvmul(x, y),
            BinOp::Div if s => term::bvsdiv(x, y),
            BinOp::Div => term::bvudiv(x, y),
            BinOp::Rem if s => term::bvsrem(x, y),
            BinOp::Rem => term::bvurem(x, y),
            BinOp::Shl => term::bvshl(x, y),
            BinOp::Shr if s => term::bvashr(x, y),
            BinOp::Shr => term::bvlshr(x, y),
            BinOp::BitAnd => term::bvand(x, y),
            BinOp::BitOr => term::bvor(x, y),
            BinOp::BitXor => term::bvxor(x, y),
            BinOp::Eq => term::eq(x, y),
            BinOp::Ne => term::not(term::eq(x, y)),
            BinOp::Lt if s => term::bvslt(x, y),
            BinOp::Lt => term::bvult(x, y),
            BinOp::Le if s => term::bvsle(x, y),
            BinOp::Le => term::bvule(x, y),
            BinOp::Gt if s => term::bvsgt(x, y),
            BinOp::Gt => term::bvugt(x, y),
            BinOp::Ge if s => term::bvsge(x, y),
            BinOp::Ge => term::bvuge(x, y),
            BinOp::And | BinOp::Or => {
                return Err(EncodeError("logical operator on integers".into()))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_preserve_values_or_wrap() {
        let x = Term::atom("x");
        assert_eq!(
            convert(x.clone(), ScalarTy::I32, ScalarTy::I64)
                .unwrap()
                .to_string(),
            "((_ sign_extend 32) x)"
        );
        assert_eq!(
            convert(x.clone(), ScalarTy::U32, ScalarTy::I64)
                .unwrap()
                .to_string(),
            "((_ zero_extend 32) x)"
        );
        assert_eq!(
            convert(x.clone(), ScalarTy::U64, ScalarTy::U8)
                .unwrap()
                .to_string(),
            "((_ extract 7 0) x)"
        );
        assert_eq!(lit(-1, ScalarTy::I8).to_string(), "(_ bv255 8)");
        assert!(convert(x, ScalarTy::F32, ScalarTy::I32).is_err());
    }
}
